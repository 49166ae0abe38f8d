import Foundation

/// When one source emits one cell: a piecewise-constant rate over a window, with births where the
/// running count `phase + ∫ rate` reaches 1, 2, 3… — evenly spaced, with the fraction carried
/// across rate changes (docs/engine-model.md §9.2).
struct EmissionSchedule {
    /// A stretch of constant rate from `start`; `count` is the running count there.
    struct Segment {
        var start: CFTimeInterval
        var rate: Double
        var count: Double
        /// The index of the parameter period in effect.
        var period: Int
    }

    /// A birth: its 1-based index, time, and the parameter period it was born in.
    struct Birth {
        var index: Int
        var time: CFTimeInterval
        var period: Int
    }

    private var segments: [Segment] = []
    private let end: CFTimeInterval

    /// The schedule over `start..<end` through `periods` (sorted by start; the first reaches back
    /// to −∞), each with its rate.
    init(periods: [EmitterCellPeriod], from start: CFTimeInterval, to end: CFTimeInterval, phase: Double) {
        self.end = end
        guard start < end else { return }
        var count = phase
        var first = periods.lastIndex { $0.start <= start } ?? 0
        var from = start
        while first < periods.count, from < end {
            let rate = periods[first].rate
            segments.append(Segment(start: from, rate: rate, count: count, period: first))
            let next = first + 1 < periods.count ? min(periods[first + 1].start, end) : end
            count += rate * (next - from)
            from = next
            first += 1
        }
    }

    /// The running count at `t` (clamped to the window).
    func count(at t: CFTimeInterval) -> Double {
        guard let i = segments.lastIndex(where: { $0.start <= t }) else { return segments.first?.count ?? 0 }
        return segments[i].count + segments[i].rate * (min(t, end) - segments[i].start)
    }

    /// How many births happened by `t` (§9.2: ⌊N(min(t, end))⌋, 0 before the window).
    func born(by t: CFTimeInterval) -> Int {
        guard !segments.isEmpty, t >= segments[0].start else { return 0 }
        return Int(count(at: t).rounded(.down))
    }

    /// Where evaluation can start again with the same births from `t` on: the start and running
    /// count of the stretch of constant rate holding `t` (the window's first when `t` is before it);
    /// nil for an empty window (§9.1).
    func anchor(at t: CFTimeInterval) -> EmissionAnchor? {
        guard let i = segments.lastIndex(where: { $0.start <= t }) ?? (segments.isEmpty ? nil : 0) else { return nil }
        return EmissionAnchor(start: segments[i].start, count: segments[i].count)
    }

    /// The births in `from...to`, newest first, for as long as `body` returns true.
    func forEachBirth(from: CFTimeInterval, to: CFTimeInterval, newestFirst body: (Birth) -> Bool) {
        guard !segments.isEmpty, from <= to else { return }
        let low = max(1, Int(count(at: from).rounded(.up)))
        var k = Int(count(at: to).rounded(.down))
        var i = segments.count - 1
        while k >= low {
            while i > 0, segments[i].rate == 0 || Double(k) <= segments[i].count { i -= 1 }
            let s = segments[i]
            guard s.rate > 0 else { return }
            let time = s.start + (Double(k) - s.count) / s.rate
            guard body(Birth(index: k, time: time, period: s.period)) else { return }
            k -= 1
        }
    }
}

/// A layer cell's emission resumed from a forgotten past: from layer time `start` with the running
/// count `count` it had reached there (docs/engine-model.md §9.1).
struct EmissionAnchor {
    var start: CFTimeInterval
    var count: Double
}

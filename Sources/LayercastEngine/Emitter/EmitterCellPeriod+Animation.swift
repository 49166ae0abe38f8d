import Foundation

extension EmitterCellPeriod {
    /// The step of the grid on which an animated birth rate is integrated: 1/60 s of layer time (§9.7).
    static let animationStep = 1.0 / 60

    /// The parameters whose animation changes when a cell is born or how long it lives.
    private static let layerRateParameters: Set<EmitterParameter> = [.birthRate, .lifetime]
    private static let cellRateParameters: Set<EmitterParameter> = [.birthRate, .lifetime, .lifetimeRange]

    /// `periods` split where animations of the cell named `names` (or of the layer) change its rate or
    /// lifetime, up to layer time `end`: at the recorded changes, at the times each such animation is
    /// attached, detached, begins and ends, and on the grid k/60 s while it runs. Each piece's rate is
    /// the presented rate at its middle (§9.7). Unchanged when no animation drives them.
    static func animated(_ periods: [EmitterCellPeriod], presenter: EmitterPresenter, names: [String]?,
                         until end: CFTimeInterval) -> [EmitterCellPeriod] {
        let tracks = presenter.tracks.filter { track in
            track.drives(layerRateParameters, of: []) || names.map { track.drives(cellRateParameters, of: $0) } == true
        }
        guard !tracks.isEmpty else { return periods }
        let h = animationStep
        var cuts = Set(periods.map(\.start).filter(\.isFinite))
        for track in tracks {
            for t in [track.attached, track.detached] where t.isFinite { cuts.insert(t) }
            guard let (low, high) = track.variation else { continue }
            if low.isFinite { cuts.insert(low) }
            if high.isFinite { cuts.insert(high) }
            // The grid runs while the value can change, up to `end` (no births come later).
            guard low.isFinite, low <= end else { continue }
            var k = (low / h).rounded(.up)
            while k * h < min(high, end + h) {
                cuts.insert(k * h)
                k += 1
            }
        }
        let starts = [-CFTimeInterval.infinity] + cuts.sorted()
        var index = 0
        return starts.enumerated().map { i, start in
            while index + 1 < periods.count, periods[index + 1].start <= start { index += 1 }
            let base = periods[index]
            let next = i + 1 < starts.count ? starts[i + 1] : .infinity
            let middle = start.isFinite && next.isFinite ? (start + next) / 2 : start.isFinite ? start + h / 2 : next - h / 2
            let layer = presenter.layer(base.layer, at: middle)
            let cell = presenter.cell(base.cell, names: names, at: middle)
            return EmitterCellPeriod(start: start, layer: base.layer, cell: base.cell, rate: rate(layer: layer, cell: cell))
        }
    }

    /// The longest a particle born in `periods` can live, with the presented values at each period's
    /// start and middle when animations drive them.
    static func longestLifetime(_ periods: [EmitterCellPeriod], presenter: EmitterPresenter, names: [String]?) -> Double {
        var longest = 0.0
        for (i, period) in periods.enumerated() {
            longest = max(longest, longestLifetime(layer: period.layer, cell: period.cell))
            guard !presenter.isEmpty else { continue }
            let next = i + 1 < periods.count ? periods[i + 1].start : .infinity
            let times = [period.start, next, period.start.isFinite && next.isFinite ? (period.start + next) / 2 : .nan]
            for t in times where t.isFinite {
                longest = max(longest, longestLifetime(layer: presenter.layer(period.layer, at: t),
                                                       cell: presenter.cell(period.cell, names: names, at: t)))
            }
        }
        return longest
    }
}

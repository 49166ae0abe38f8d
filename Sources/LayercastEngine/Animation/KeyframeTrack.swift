import Foundation

/// A keyframe animation's values prepared for evaluation: key times, per-segment timing and the
/// distance tables the paced modes need. Built once when the animation is attached.
final class KeyframeTrack {
    let values: [AnimatableValue]
    let keyTimes: [CGFloat]
    let timingFunctions: [CAMediaTimingFunction]
    private let mode: Mode
    let path: PathSampler?
    /// Transform values decomposed once, so each frame only interpolates the parts.
    private let decomposed: [DecomposedTransform3D?]
    /// For paced modes: cumulative arc length at each table entry, with its segment and parameter.
    private var pacedTable: [(length: CGFloat, segment: Int, u: CGFloat)] = []

    /// The calculation mode, decoded once (comparing the public raw strings per frame is costly).
    private enum Mode {
        case linear, discrete, paced, cubic, cubicPaced

        init(_ mode: CAAnimationCalculationMode) {
            switch mode {
            case .discrete: self = .discrete
            case .paced: self = .paced
            case .cubic: self = .cubic
            case .cubicPaced: self = .cubicPaced
            default: self = .linear
            }
        }

        var isPaced: Bool { self == .paced || self == .cubicPaced }
    }

    private static let chordsPerCubicSegment = 64

    init(values: [AnimatableValue], keyTimes: [CGFloat]?, timingFunctions: [CAMediaTimingFunction],
         mode: CAAnimationCalculationMode, path: PathSampler?) {
        self.values = values
        self.timingFunctions = timingFunctions
        let mode = Mode(mode)
        self.mode = mode
        self.path = path
        self.decomposed = values.map { value in
            guard case .transform(let t) = value else { return nil }
            return DecomposedTransform3D(t)
        }
        let n = values.count
        let expected = mode == .discrete ? [n, n + 1] : [n]
        if let keyTimes, expected.contains(keyTimes.count) {
            self.keyTimes = keyTimes
        } else if mode == .discrete {
            self.keyTimes = (0..<n).map { CGFloat($0) / CGFloat(n) }
        } else {
            self.keyTimes = n > 1 ? (0..<n).map { CGFloat($0) / CGFloat(n - 1) } : [0]
        }
        if mode.isPaced, path == nil, n > 1, values[0].isInterpolable, values[0].kind != .transform {
            pacedTable = Self.arcLengthTable(values: values, cubic: mode == .cubicPaced)
        }
    }

    /// The value (and direction of travel, for rotationMode) at fraction `f` of the cycle.
    func value(at f: CGFloat) -> (value: AnimatableValue, tangent: CGFloat)? {
        let n = values.count
        guard n > 0 else { return nil }
        if n == 1 { return (values[0], 0) }
        if mode.isPaced, let path {
            let p = path.point(atDistance: min(max(f, 0), 1) * path.totalLength)
            return (.point(p.point), p.tangentAngle)
        }
        if mode.isPaced, !pacedTable.isEmpty {
            let (segment, u) = pacedPosition(f)
            return evaluate(segment: segment, u: u, cubic: mode == .cubicPaced)
        }
        if mode == .discrete {
            guard f >= keyTimes[0] else { return (values[0], 0) }
            let i = min(lastIndex(atOrBefore: f), n - 1)
            return (values[i], 0)
        }
        // linear and cubic (and paced transforms, which fall back to evenly spaced linear)
        let times = mode.isPaced ? (0..<n).map { CGFloat($0) / CGFloat(n - 1) } : keyTimes
        if f <= times[0] { return evaluate(segment: 0, u: 0, cubic: false) }
        if f >= times[n - 1] { return evaluate(segment: n - 2, u: 1, cubic: false) }
        let i = min(lastIndex(atOrBefore: f, in: times), n - 2)
        let span = times[i + 1] - times[i]
        var u = span > 0 ? (f - times[i]) / span : 1
        if !mode.isPaced, i < timingFunctions.count { u = timingFunctions[i].evaluate(u) }
        return evaluate(segment: i, u: u, cubic: mode == .cubic)
    }

    /// The value within segment `i` (from values[i] to values[i+1]) at parameter `u`.
    private func evaluate(segment i: Int, u: CGFloat, cubic: Bool) -> (value: AnimatableValue, tangent: CGFloat) {
        if let path {
            let p = path.point(atElement: i, fraction: u)
            return (.point(p.point), p.tangentAngle)
        }
        let a = values[i], b = values[i + 1]
        if case .transform = a {
            guard let da = decomposed[i], let db = decomposed[i + 1] else { return (u < 0.5 ? a : b, 0) }
            return (.transform(da.interpolated(to: db, u).transform), 0)
        }
        let tangent = Self.direction(from: a, to: b)
        guard cubic, a.isInterpolable, a.kind != .transform else { return (a.interpolated(to: b, u), tangent) }
        let before = values[max(i - 1, 0)], after = values[min(i + 2, values.count - 1)]
        return (Self.hermite(before, a, b, after, u), tangent)
    }

    /// Catmull-Rom through p1 and p2 with tangents (p2 − p0)/2 and (p3 − p1)/2; linear from p1 to p2
    /// unless all four have one shape (paths or lists of different shapes have no common components).
    private static func hermite(_ p0: AnimatableValue, _ p1: AnimatableValue, _ p2: AnimatableValue, _ p3: AnimatableValue, _ u: CGFloat) -> AnimatableValue {
        guard [p0, p2, p3].allSatisfy(p1.matchesShape) else { return p1.interpolated(to: p2, u) }
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        let c0 = p0.components, c1 = p1.components, c2 = p2.components, c3 = p3.components
        var out = c1
        for k in out.indices {
            let m1 = (c2[k] - c0[k]) / 2, m2 = (c3[k] - c1[k]) / 2
            out[k] = h00 * c1[k] + h10 * m1 + h01 * c2[k] + h11 * m2
        }
        return p1.with(components: out)
    }

    private static func direction(from a: AnimatableValue, to b: AnimatableValue) -> CGFloat {
        guard case .point(let p) = a, case .point(let q) = b else { return 0 }
        return atan2(q.y - p.y, q.x - p.x)
    }

    private func lastIndex(atOrBefore f: CGFloat, in times: [CGFloat]? = nil) -> Int {
        let times = times ?? keyTimes
        var i = 0
        while i + 1 < times.count, times[i + 1] <= f { i += 1 }
        return i
    }

    /// The segment and parameter at which fraction `f` of the total arc length is reached.
    private func pacedPosition(_ f: CGFloat) -> (Int, CGFloat) {
        let total = pacedTable[pacedTable.count - 1].length
        guard total > 0 else { return (0, 0) }
        let target = min(max(f, 0), 1) * total
        var lo = 0, hi = pacedTable.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if pacedTable[mid].length <= target { lo = mid } else { hi = mid }
        }
        let a = pacedTable[lo], b = pacedTable[hi]
        let span = b.length - a.length
        let w = span > 0 ? (target - a.length) / span : 0
        if a.segment == b.segment { return (a.segment, a.u + (b.u - a.u) * w) }
        return (b.segment, b.u * w)
    }

    /// Cumulative chord lengths along the polyline (or spline) through the values.
    private static func arcLengthTable(values: [AnimatableValue], cubic: Bool) -> [(length: CGFloat, segment: Int, u: CGFloat)] {
        var table: [(length: CGFloat, segment: Int, u: CGFloat)] = [(0, 0, 0)]
        var length: CGFloat = 0
        let steps = cubic ? chordsPerCubicSegment : 1
        for i in 0..<(values.count - 1) {
            let p0 = values[max(i - 1, 0)], p1 = values[i], p2 = values[i + 1], p3 = values[min(i + 2, values.count - 1)]
            var previous = p1
            for s in 1...steps {
                let u = CGFloat(s) / CGFloat(steps)
                let point = cubic ? hermite(p0, p1, p2, p3, u) : p2
                length += previous.distance(to: point)
                table.append((length, i, u))
                previous = point
            }
        }
        return table
    }
}

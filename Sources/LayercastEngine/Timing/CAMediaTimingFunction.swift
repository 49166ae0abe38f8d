import Foundation

/// The name of one of Core Animation's predefined timing curves; raw values match Apple's.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    /// The name's string form, e.g. `"easeInEaseOut"`.
    public let rawValue: String

    /// Wraps a raw name; only the five predefined names are understood by `CAMediaTimingFunction(name:)`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Constant pacing: control points (0, 0) and (1, 1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Slow start: control points (0.42, 0) and (1, 1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Slow finish: control points (0, 0) and (0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Slow start and finish: control points (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// Core Animation's default curve: control points (0.25, 0.1) and (0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// An immutable cubic Bézier timing curve from (0, 0) to (1, 1), as in Core Animation.
///
/// Control points are stored as `Float`, as Apple does; equality and hashing compare them.
public final class CAMediaTimingFunction: Hashable, Sendable {
    private let c1x: Float
    private let c1y: Float
    private let c2x: Float
    private let c2y: Float

    /// Creates a curve from two control points; `c1x` and `c2x` are clamped to 0…1 (Apple rejects
    /// x outside that range), the y values are kept as given so curves may overshoot.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.c1x = min(max(c1x, 0), 1)
        self.c1y = c1y
        self.c2x = min(max(c2x, 0), 1)
        self.c2y = c2y
    }

    /// Creates a curve from `(c1x, c1y, c2x, c2y)` given as `CGFloat`s, rounded to `Float` like the `Float` initializer.
    public convenience init(controlPoints points: (CGFloat, CGFloat, CGFloat, CGFloat)) {
        self.init(controlPoints: Float(points.0), Float(points.1), Float(points.2), Float(points.3))
    }

    /// Creates one of the predefined curves with Apple's control points; an unknown name yields `default`.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// Writes point `index` of the curve into `ptr[0]` (x) and `ptr[1]` (y): 0 → (0, 0), 1 → first
    /// control point, 2 → second control point, 3 → (1, 1); other indices leave `ptr` untouched.
    public func getControlPoint(at index: Int, values ptr: UnsafeMutablePointer<Float>) {
        let point: (Float, Float)
        switch index {
        case 0: point = (0, 0)
        case 1: point = (c1x, c1y)
        case 2: point = (c2x, c2y)
        case 3: point = (1, 1)
        default: return
        }
        ptr[0] = point.0
        ptr[1] = point.1
    }

    /// The two inner control points (the curve's ends are always (0, 0) and (1, 1)).
    public var controlPoints: (CGPoint, CGPoint) {
        (CGPoint(x: CGFloat(c1x), y: CGFloat(c1y)), CGPoint(x: CGFloat(c2x), y: CGFloat(c2y)))
    }

    /// The curve's y at input `x` (clamped to 0…1), accurate to 1e-6: solves x(t) = x by Newton's
    /// method with a bisection fallback, then evaluates y(t).
    public func evaluate(_ x: CGFloat) -> CGFloat {
        let x = min(max(Double(x), 0), 1)
        // The curve's ends are exact: a cycle's end must map to 1, not 1 − ε.
        if x == 0 || x == 1 { return CGFloat(x) }
        // With both control points on the diagonal x(t) and y(t) are the same polynomial.
        if c1x == c1y && c2x == c2y { return CGFloat(x) }
        let t = solveCurveX(x)
        return CGFloat(Self.bezier(t, Double(c1y), Double(c2y)))
    }

    /// One coordinate of the cubic Bézier with ends 0 and 1 and inner control values `p1`, `p2`.
    private static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    /// The derivative of `bezier` with respect to `t`.
    private static func bezierDerivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// The parameter t in 0…1 with x(t) = `x`. x(t) is non-decreasing because c1x, c2x ∈ 0…1.
    private func solveCurveX(_ x: Double) -> Double {
        let p1 = Double(c1x), p2 = Double(c2x)
        // Newton: accept only a tight residual on a slope steep enough that t (hence y) is pinned
        // down to ~1e-9; flat stretches go to bisection, whose bracket bounds the error directly.
        var t = x
        for _ in 0..<8 {
            let residual = Self.bezier(t, p1, p2) - x
            let slope = Self.bezierDerivative(t, p1, p2)
            if abs(residual) < 1e-12 && slope > 1e-3 { return t }
            if abs(slope) < 1e-6 { break }
            t -= residual / slope
            if !(0...1).contains(t) { break }
        }
        var low = 0.0, high = 1.0
        while high - low > 1e-12 {
            let middle = (low + high) / 2
            if Self.bezier(middle, p1, p2) < x { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// Two timing functions are equal when their control points are equal.
    public static func == (lhs: CAMediaTimingFunction, rhs: CAMediaTimingFunction) -> Bool {
        lhs.c1x == rhs.c1x && lhs.c1y == rhs.c1y && lhs.c2x == rhs.c2x && lhs.c2y == rhs.c2y
    }

    /// Hashes the four control-point values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1x)
        hasher.combine(c1y)
        hasher.combine(c2x)
        hasher.combine(c2y)
    }
}

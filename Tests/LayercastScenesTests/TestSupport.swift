import Foundation

// Shared references for the scene tests, independent of the engine's own code.

/// y of the cubic Bézier timing curve (0,0)–(c1x,c1y)–(c2x,c2y)–(1,1) at x, by plain bisection on
/// x(t): a reference independent of the engine's Newton solver; the control points are rounded to
/// Float as Core Animation stores them, and x outside 0…1 is clamped.
func bezier(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, at x: Double) -> Double {
    if x <= 0 || x >= 1 { return min(max(x, 0), 1) }
    func b(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }
    var low = 0.0, high = 1.0
    for _ in 0..<200 {
        let mid = (low + high) / 2
        if b(mid, Double(c1x), Double(c2x)) < x { low = mid } else { high = mid }
    }
    return b((low + high) / 2, Double(c1y), Double(c2y))
}

/// UIView's default animation curve and `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0), (0.58, 1).
func easeInEaseOut(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, at: x) }

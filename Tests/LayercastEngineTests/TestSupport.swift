import Foundation
@testable import LayercastEngine

// Comparison helpers and independent references shared by the engine suites.

func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a - b) < tolerance
}

func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance
}

func close(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    close(a.origin, b.origin, tolerance) && abs(a.width - b.width) < tolerance && abs(a.height - b.height) < tolerance
}

func close(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: CGFloat = 1e-9) -> Bool {
    zip(a.components, b.components).allSatisfy { abs($0 - $1) < tolerance }
}

func degrees(_ d: CGFloat) -> CGFloat { d * .pi / 180 }

/// A perspective transform with the eye at distance `d` (m34 = −1/d).
func perspective(_ d: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m34 = -1 / d
    return t
}

/// y of the cubic Bézier timing curve (0,0)–(c1x,c1y)–(c2x,c2y)–(1,1) at x, by plain bisection:
/// a reference independent of the engine's Newton solver; the control points are rounded to
/// Float as Core Animation stores them.
func bezier(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, at x: Double) -> Double {
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

/// Apple's named curves, through the reference above.
func easeIn(_ x: Double) -> Double { bezier(0.42, 0, 1, 1, at: x) }
func easeInEaseOut(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, at: x) }
func defaultCurve(_ x: Double) -> Double { bezier(0.25, 0.1, 0.25, 1, at: x) }

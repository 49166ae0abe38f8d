import Foundation
import Testing
@testable import LayercastEngine

/// The L: 100 points right, then 50 points up (y grows upward here, as in Core Graphics math).
private func lShape() -> CGPath {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 0, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 50))
    return path.copy()!
}

@Suite("CGPath and PathSampler")
struct CGPathTests {
    @Test func lineLengths() {
        // 3-4-5 triangle leg, then a 6-point vertical line: 5 + 6 = 11.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 3, y: 4))
        #expect(PathSampler(path.copy()!).totalLength == 5)
        path.addLine(to: CGPoint(x: 3, y: 10))
        #expect(PathSampler(path.copy()!).totalLength == 11)
    }

    @Test func ellipseArcLengths() {
        // A circle of radius 100: the quarter arc is π/2·100 ≈ 157.08 and the whole 2π·100. The
        // four-cubic approximation deviates from the circle by at most 0.027% of r, so 0.1% holds.
        let circle = CGPath(ellipseIn: CGRect(x: -100, y: -100, width: 200, height: 200))
        let quarter = CGPath(elements: Array(circle.elements.prefix(2)))
        let quarterLength = PathSampler(quarter).totalLength
        #expect(abs(quarterLength / (.pi / 2 * 100) - 1) < 0.001)
        #expect(abs(PathSampler(circle).totalLength / (2 * .pi * 100) - 1) < 0.001)
    }

    @Test func quadCurveLengthMatchesDenseSampling() {
        // Reference: 1,000,000 chords of the same quadratic, computed here from the Bézier formula.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))
        var reference: CGFloat = 0
        var previous = CGPoint.zero
        for i in 1...1_000_000 {
            let t = CGFloat(i) / 1_000_000, u = 1 - t
            let point = CGPoint(x: 2 * u * t * 50 + t * t * 100, y: 2 * u * t * 100)
            reference += hypot(point.x - previous.x, point.y - previous.y)
            previous = point
        }
        #expect(abs(PathSampler(path.copy()!).totalLength - reference) < 0.01)
    }

    @Test func rectElementsAndKeyPoints() {
        // CGPathAddRect's documented layout: move to (minX, minY), lines counter-clockwise (y up), close.
        let path = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(path.elements == [
            .moveToPoint(CGPoint(x: 10, y: 20)),
            .addLineToPoint(CGPoint(x: 40, y: 20)),
            .addLineToPoint(CGPoint(x: 40, y: 60)),
            .addLineToPoint(CGPoint(x: 10, y: 60)),
            .closeSubpath,
        ])
        // The close contributes the subpath's start point.
        #expect(PathSampler(path).keyPoints == [
            CGPoint(x: 10, y: 20), CGPoint(x: 40, y: 20), CGPoint(x: 40, y: 60), CGPoint(x: 10, y: 60),
            CGPoint(x: 10, y: 20),
        ])
        #expect(PathSampler(path).totalLength == 140)
    }

    @Test func pointAtDistanceAlongAnLShape() {
        let sampler = PathSampler(lShape())
        #expect(sampler.totalLength == 150)
        // Halfway (75 of 150) is on the first leg, travelling along +x.
        let half = sampler.point(atDistance: 75)
        #expect(close(half.point, CGPoint(x: 75, y: 0)))
        #expect(half.tangentAngle == 0)
        // 125 is 25 up the second leg, travelling along +y: atan2(1, 0) = π/2.
        let upper = sampler.point(atDistance: 125)
        #expect(close(upper.point, CGPoint(x: 100, y: 25)))
        #expect(abs(upper.tangentAngle - .pi / 2) < 1e-12)
        // At the corner the segment ending there wins; out-of-range distances clamp to the ends.
        #expect(sampler.point(atDistance: 100).tangentAngle == 0)
        #expect(close(sampler.point(atDistance: -5).point, .zero))
        let end = sampler.point(atDistance: 1000)
        #expect(close(end.point, CGPoint(x: 100, y: 50)))
        #expect(abs(end.tangentAngle - .pi / 2) < 1e-12)
    }

    @Test func tangentAnglesFollowTravel() {
        // Leftward travel: atan2(0, −1) = π; downward: atan2(−1, 0) = −π/2.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 100, y: 50))
        path.addLine(to: CGPoint(x: 0, y: 50))
        path.addLine(to: CGPoint(x: 0, y: 0))
        let sampler = PathSampler(path.copy()!)
        #expect(abs(sampler.point(atDistance: 10).tangentAngle - .pi) < 1e-12)
        #expect(abs(sampler.point(atDistance: 120).tangentAngle + .pi / 2) < 1e-12)
        // The ellipse starts at (maxX, midY) heading up (+y), and its second arc starts at (midX, maxY)
        // heading in −x.
        let ellipse = PathSampler(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 60)))
        let start = ellipse.point(atElement: 0, fraction: 0)
        #expect(close(start.point, CGPoint(x: 100, y: 30)))
        #expect(abs(start.tangentAngle - .pi / 2) < 1e-12)
        let top = ellipse.point(atElement: 1, fraction: 0)
        #expect(close(top.point, CGPoint(x: 50, y: 60)))
        #expect(abs(abs(top.tangentAngle) - .pi) < 1e-12)
    }

    @Test func pointAtElementEvaluatesTheCurveParameter() {
        let p0 = CGPoint(x: 0, y: 0), c1 = CGPoint(x: 10, y: 40), c2 = CGPoint(x: 90, y: 40), p3 = CGPoint(x: 100, y: 0)
        let path = CGMutablePath()
        path.move(to: p0)
        path.addCurve(to: p3, control1: c1, control2: c2)
        path.addLine(to: CGPoint(x: 100, y: -20))
        let sampler = PathSampler(path.copy()!)
        #expect(sampler.keyPoints == [p0, p3, CGPoint(x: 100, y: -20)])
        // Cubic at t = 1/2: (P0 + 3·C1 + 3·C2 + P3) / 8 = (50, 30), tangent horizontal by symmetry.
        let middle = sampler.point(atElement: 0, fraction: 0.5)
        #expect(close(middle.point, CGPoint(x: 50, y: 30)))
        #expect(abs(middle.tangentAngle) < 1e-12)
        // Cubic at t = 1/4: (27·P0 + 27·C1 + 9·C2 + P3) / 64 = (1180/64, 1440/64) = (18.4375, 22.5).
        #expect(close(sampler.point(atElement: 0, fraction: 0.25).point, CGPoint(x: 18.4375, y: 22.5)))
        // The line is interpolated.
        let down = sampler.point(atElement: 1, fraction: 0.25)
        #expect(close(down.point, CGPoint(x: 100, y: -5)))
        #expect(abs(down.tangentAngle + .pi / 2) < 1e-12)
        // Out-of-range requests clamp.
        #expect(close(sampler.point(atElement: 7, fraction: 2).point, CGPoint(x: 100, y: -20)))
    }

    @Test func degenerateTangents() {
        // A zero-length line reuses the previous element's exit angle (0 here).
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        let sampler = PathSampler(path.copy()!)
        let stuck = sampler.point(atElement: 1, fraction: 0.5)
        #expect(close(stuck.point, CGPoint(x: 10, y: 0)))
        #expect(stuck.tangentAngle == 0)
        // A cubic whose first control point sits on its start has B'(0) = 0; its direction there is
        // that of B''(0) ∝ C2 − P0 = (10, 10), i.e. π/4.
        let cusp = CGMutablePath()
        cusp.move(to: .zero)
        cusp.addCurve(to: CGPoint(x: 20, y: 0), control1: .zero, control2: CGPoint(x: 10, y: 10))
        #expect(abs(PathSampler(cusp.copy()!).point(atElement: 0, fraction: 0).tangentAngle - .pi / 4) < 1e-3)
        // A path that never moves has no length: its first point, angle 0.
        let dot = CGMutablePath()
        dot.move(to: CGPoint(x: 3, y: 4))
        let dotSampler = PathSampler(dot.copy()!)
        #expect(dotSampler.totalLength == 0)
        #expect(dotSampler.point(atDistance: 1) == (CGPoint(x: 3, y: 4), 0))
        #expect(dotSampler.point(atElement: 0, fraction: 0.5) == (CGPoint(x: 3, y: 4), 0))
    }

    @Test func movesJumpWithoutLength() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.move(to: CGPoint(x: 100, y: 100))
        path.addLine(to: CGPoint(x: 100, y: 110))
        let sampler = PathSampler(path.copy()!)
        #expect(sampler.totalLength == 20)
        #expect(close(sampler.point(atDistance: 15).point, CGPoint(x: 100, y: 105)))
        // Element 1 is the move: it sits at its destination, keeping the previous heading.
        #expect(sampler.point(atElement: 1, fraction: 0.3) == (CGPoint(x: 100, y: 100), 0))
    }

    @Test func containsRect() {
        let path = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(path.contains(CGPoint(x: 20, y: 30)))
        #expect(path.contains(CGPoint(x: 39.9, y: 59.9)))
        #expect(!path.contains(CGPoint(x: 5, y: 5)))
        #expect(!path.contains(CGPoint(x: 50, y: 30)))
        #expect(!path.contains(CGPoint(x: 20, y: 61)))
    }

    @Test func containsEllipse() {
        // Ellipse centred (50, 25) with radii 50 and 25: inside iff ((x−50)/50)² + ((y−25)/25)² < 1.
        let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(path.contains(CGPoint(x: 50, y: 25)))
        #expect(path.contains(CGPoint(x: 99, y: 25)))   // 0.9604
        #expect(path.contains(CGPoint(x: 50, y: 49)))   // 0.9216
        #expect(!path.contains(CGPoint(x: 95, y: 45)))  // 1.45
        #expect(!path.contains(CGPoint(x: 2, y: 2)))    // 1.77
        #expect(!path.contains(CGPoint(x: 150, y: 25)))
    }

    @Test func windingAndEvenOddRules() {
        // Two nested rectangles drawn the same way round: winding number 2 in the middle, which is
        // inside under the non-zero rule and outside under even-odd.
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        path.addRect(CGRect(x: 25, y: 25, width: 50, height: 50))
        #expect(path.contains(CGPoint(x: 50, y: 50)))
        #expect(!path.contains(CGPoint(x: 50, y: 50), using: .evenOdd))
        #expect(path.contains(CGPoint(x: 10, y: 10), using: .evenOdd))
        // An open subpath is implicitly closed for filling: this triangle has no close element.
        let triangle = CGMutablePath()
        triangle.move(to: .zero)
        triangle.addLine(to: CGPoint(x: 10, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 10))
        #expect(triangle.contains(CGPoint(x: 2, y: 2)))
        #expect(!triangle.contains(CGPoint(x: 8, y: 8)))
    }

    @Test func boundingBoxes() {
        // The quadratic (0,0)–(50,100)–(100,0) peaks at t = 1/2, y = 2·¼·100 = 50; its control point
        // reaches y = 100. boundingBox includes control points (Apple), boundingBoxOfPath does not.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))
        #expect(path.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(path.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 100, height: 50))
        let ellipseRect = CGRect(x: 10, y: 20, width: 80, height: 40)
        let ellipse = CGPath(ellipseIn: ellipseRect)
        #expect(ellipse.boundingBox == ellipseRect)
        let tight = ellipse.boundingBoxOfPath
        #expect(abs(tight.minX - 10) < 1e-9 && abs(tight.maxX - 90) < 1e-9)
        #expect(abs(tight.minY - 20) < 1e-9 && abs(tight.maxY - 60) < 1e-9)
    }

    @Test func emptyPathsAndMissingCurrentPoint() {
        // Core Graphics ignores lines and curves before the first move (there is no current point).
        let path = CGMutablePath()
        #expect(path.isEmpty)
        #expect(path.boundingBox.isNull)
        path.addLine(to: CGPoint(x: 5, y: 5))
        path.addCurve(to: CGPoint(x: 5, y: 5), control1: .zero, control2: .zero)
        path.closeSubpath()
        #expect(path.isEmpty)
        #expect(path.currentPoint == .zero)
        path.move(to: CGPoint(x: 1, y: 2))
        #expect(!path.isEmpty)
        #expect(path.currentPoint == CGPoint(x: 1, y: 2))
        #expect(!path.contains(CGPoint(x: 1, y: 2)))
        #expect(CGPath(elements: [.addLineToPoint(CGPoint(x: 1, y: 1))]).isEmpty)
    }

    @Test func mutableConstructionMatchesInitializers() {
        let rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        let mutable = CGMutablePath()
        mutable.addRect(rect)
        #expect(mutable.copy() == CGPath(rect: rect, transform: nil))
        let ellipse = CGMutablePath()
        ellipse.addEllipse(in: rect)
        #expect(ellipse.copy() == CGPath(ellipseIn: rect, transform: nil))
        // A close returns the current point to the subpath's start.
        mutable.move(to: CGPoint(x: 9, y: 9))
        mutable.addLine(to: CGPoint(x: 10, y: 9))
        mutable.closeSubpath()
        #expect(mutable.currentPoint == CGPoint(x: 9, y: 9))
        #expect(CGPath(rect: rect).mutableCopy()?.copy() == CGPath(rect: rect))
    }

    @Test func transformsMapPoints() {
        // Translating by (5, −2) moves the rectangle's bounding box by the same amount.
        let shift = AffineTransform(translationByX: 5, byY: -2)
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: shift)
        #expect(path.boundingBox == CGRect(x: 5, y: -2, width: 10, height: 10))
        let mutable = CGMutablePath()
        mutable.move(to: .zero, transform: shift)
        mutable.addLine(to: CGPoint(x: 1, y: 1), transform: shift)
        #expect(mutable.elements == [.moveToPoint(CGPoint(x: 5, y: -2)), .addLineToPoint(CGPoint(x: 6, y: -1))])
        // contains(_:transform:) tests against the path mapped through the transform, as Core Graphics
        // does: the 0…10 square shifted by (5, −2) holds (12, 7) but no longer (2, 3).
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(square.contains(CGPoint(x: 12, y: 7), transform: shift))
        #expect(!square.contains(CGPoint(x: 2, y: 3), transform: shift))
        #expect(square.contains(CGPoint(x: 2, y: 3)))
    }
}

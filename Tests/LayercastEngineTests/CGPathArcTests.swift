import Foundation
import Testing
@testable import LayercastEngine

/// The end points of every element, in order (nil for a close).
private func ends(_ path: CGPath) -> [CGPoint?] {
    path.elements.map { $0.storedPoints.last }
}

@Suite("CGPath arcs, rounded rects and transforms")
struct CGPathArcTests {
    @Test func quarterArcIncreasingAngle() {
        // clockwise false (Core Graphics): 0 → π/2 runs from (10, 0) to (0, 10) in one cubic whose
        // controls sit on the tangents at 4/3·tan(π/8)·10 = 5.5228… from the ends.
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(path.elements.count == 2)
        guard case .moveToPoint(let start) = path.elements[0],
              case .addCurveToPoint(let c1, let c2, let end) = path.elements[1] else {
            Issue.record("expected a move and a curve"); return
        }
        let k = 4.0 / 3.0 * tan(CGFloat.pi / 8) * 10
        #expect(close(start, CGPoint(x: 10, y: 0)))
        #expect(close(c1, CGPoint(x: 10, y: k)))
        #expect(close(c2, CGPoint(x: k, y: 10)))
        #expect(close(end, CGPoint(x: 0, y: 10), 1e-12))
    }

    @Test func clockwiseTakesTheLongWay() {
        // clockwise true from 0 to π/2 decreases the angle by 3π/2: through (0, −10) and (−10, 0).
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let points = ends(path.copy()!).compactMap { $0 }
        #expect(points.count == 4)
        let expected = [CGPoint(x: 10, y: 0), CGPoint(x: 0, y: -10), CGPoint(x: -10, y: 0), CGPoint(x: 0, y: 10)]
        for (p, q) in zip(points, expected) { #expect(close(p, q, 1e-12)) }
    }

    @Test func arcAfterAPointStartsWithALine() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: .pi, endAngle: 0, clockwise: false)
        guard case .addLineToPoint(let p) = path.elements[1] else { Issue.record("expected a line"); return }
        #expect(close(p, CGPoint(x: 40, y: 50), 1e-12))
        // π → 0 increasing is π → 2π: the lower half in y-up terms, through (50, 40), 2 pieces.
        #expect(path.elements.count == 4)
        #expect(close(ends(path.copy()!)[2]!, CGPoint(x: 50, y: 40), 1e-12))
        #expect(close(path.currentPoint, CGPoint(x: 60, y: 50), 1e-12))
    }

    @Test func fullCircleArcIsClosedInFourPieces() {
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 5, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        #expect(path.elements.count == 5)
        #expect(close(path.currentPoint, CGPoint(x: 5, y: 0), 1e-12))
        #expect(abs(PathSampler(path.copy()!).totalLength / (2 * .pi * 5) - 1) < 0.001)
    }

    @Test func tangentArcRoundsARightAngle() {
        // From (0, 0) towards (100, 0), then up to (100, 100), radius 20: tangent points (80, 0) and
        // (100, 20), centre (80, 20); the arc is the quarter from angle −π/2 to 0.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
        let points = ends(path.copy()!)
        #expect(points.count == 3)
        #expect(close(points[1]!, CGPoint(x: 80, y: 0), 1e-9))
        #expect(close(points[2]!, CGPoint(x: 100, y: 20), 1e-9))
        guard case .addCurveToPoint(let c1, _, _) = path.elements[2] else { Issue.record("expected a curve"); return }
        #expect(close(c1, CGPoint(x: 80 + 4.0 / 3.0 * tan(CGFloat.pi / 8) * 20, y: 0), 1e-9))
    }

    @Test func tangentArcWithCollinearPointsIsALine() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 20, y: 0), radius: 5)
        #expect(path.elements.last == .addLineToPoint(CGPoint(x: 10, y: 0)))
    }

    @Test func roundedRectLayout() {
        let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 10, cornerHeight: 5)
        let expected: [CGPoint?] = [
            CGPoint(x: 10, y: 0), CGPoint(x: 90, y: 0), CGPoint(x: 100, y: 5), CGPoint(x: 100, y: 45),
            CGPoint(x: 90, y: 50), CGPoint(x: 10, y: 50), CGPoint(x: 0, y: 45), CGPoint(x: 0, y: 5),
            CGPoint(x: 10, y: 0), nil,
        ]
        #expect(ends(path) == expected)
        #expect(path.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 100, height: 50))
        // Corner (1, 1) is outside the rounding; (5, 5) is inside.
        #expect(!path.contains(CGPoint(x: 1, y: 1)))
        #expect(path.contains(CGPoint(x: 5, y: 5)))
        // Radii beyond half the side are clamped: a 20×20 square with radius 50 is a circle of radius 10.
        let circle = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), cornerWidth: 50, cornerHeight: 50)
        #expect(abs(PathSampler(circle).totalLength / (2 * .pi * 10) - 1) < 0.001)
        #expect(CGPath(roundedRect: CGRect(x: 0, y: 0, width: 4, height: 4), cornerWidth: 0, cornerHeight: 0)
            == CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4)))
    }

    @Test func linesPathsAndTransforms() {
        let path = CGMutablePath()
        path.addLines(between: [.zero, CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1)])
        path.addPath(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)),
                     transform: AffineTransform(translationByX: 10, byY: 0))
        let copy = path.copy()!
        #expect(copy.elements.count == 3 + 5)
        #expect(copy.elements[3] == .moveToPoint(CGPoint(x: 10, y: 0)))
        let scaled = copy.copy(using: AffineTransform(scaleByX: 2, byY: 3))!
        #expect(scaled.elements[2] == .addLineToPoint(CGPoint(x: 2, y: 3)))
        #expect(copy.copy(using: nil) == copy)
    }

    @Test func arcBeyondOneTurnWindsOnAndIsLonger() {
        // 0 → 2.5π, radius 10, increasing: 2.5π·10 long, five quarter pieces, ending at θ = 2.5π (0, 10).
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2.5 * .pi, clockwise: false)
        #expect(path.elements.count == 6)
        #expect(close(path.currentPoint, CGPoint(x: 0, y: 10), 1e-12))
        let sampler = PathSampler(path)
        #expect(abs(sampler.totalLength / (25 * .pi) - 1) < 0.001)   // 78.54, not the full circle's 62.83
        // strokeEnd 0.5 is half the length: θ = 1.25π, (10 cos 1.25π, 10 sin 1.25π) = (−7.071, −7.071);
        // over a 2π arc it would be θ = π, (−10, 0).
        let half = sampler.point(atDistance: 0.5 * sampler.totalLength).point
        #expect(close(half, CGPoint(x: -10 * CGFloat(0.5).squareRoot(), y: -10 * CGFloat(0.5).squareRoot()), 0.01))
        let circle = CGMutablePath()
        circle.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        let circleSampler = PathSampler(circle)
        #expect(close(circleSampler.point(atDistance: 0.5 * circleSampler.totalLength).point, CGPoint(x: -10, y: 0), 0.01))
    }
}

import Foundation
import Testing
import LayercastEngine

// UIBezierPath with UIKit's meaning of `clockwise` (true: the angle increases, clockwise on screen
// in the y-down layer space) and its builders, against points computed by hand.

@Suite("UIBezierPath")
struct UIBezierPathTests {
    @Test func bezierClockwiseIncreasesTheAngleLikeUIKit() {
        // On iOS (y down) clockwise true from 0 to π/2 runs from (cx + r, cy) through the bottom-right
        // quarter on screen: (cx + r cos θ, cy + r sin θ) with θ increasing. Centre (100, 100), r 50.
        let path = UIBezierPath(arcCenter: CGPoint(x: 100, y: 100), radius: 50, startAngle: 0,
                                endAngle: .pi / 2, clockwise: true).cgPath
        #expect(path.elements.count == 2)   // a move and one quarter cubic
        guard case .moveToPoint(let start) = path.elements[0],
              case .addCurveToPoint(_, _, let end) = path.elements[1] else {
            Issue.record("expected a move and a curve"); return
        }
        #expect(close(start, CGPoint(x: 150, y: 100), 1e-12))
        #expect(close(end, CGPoint(x: 100, y: 150), 1e-12))
        // Half way along (θ = π/4): (100 + 50 cos π/4, 100 + 50 sin π/4) = (135.355…, 135.355…).
        let sampler = PathSampler(path)
        let middle = sampler.point(atDistance: sampler.totalLength / 2).point
        #expect(close(middle, CGPoint(x: 100 + 50 * cos(CGFloat.pi / 4), y: 100 + 50 * sin(CGFloat.pi / 4)), 0.01))
        #expect(abs(sampler.totalLength / (25 * .pi) - 1) < 0.001)   // a quarter of 2π·50
    }

    @Test func bezierCounterclockwiseTakesTheLongWayThroughTheTop() {
        // clockwise false from 0 to π/2: θ decreases by 3π/2, through (cx, cy − r) — the top on screen.
        let path = UIBezierPath(arcCenter: CGPoint(x: 100, y: 100), radius: 50, startAngle: 0,
                                endAngle: .pi / 2, clockwise: false).cgPath
        let ends = path.elements.compactMap { element -> CGPoint? in
            switch element {
            case .moveToPoint(let p), .addCurveToPoint(_, _, let p): p
            default: nil
            }
        }
        let expected = [CGPoint(x: 150, y: 100), CGPoint(x: 100, y: 50), CGPoint(x: 50, y: 100), CGPoint(x: 100, y: 150)]
        #expect(ends.count == 4)
        for (p, q) in zip(ends, expected) { #expect(close(p, q, 1e-12)) }
    }

    @Test func bezierArcIsCoreGraphicsArcWithTheFlagNegated() {
        let mutable = CGMutablePath()
        mutable.move(to: CGPoint(x: 0, y: 0))
        mutable.addArc(center: CGPoint(x: 40, y: 30), radius: 20, startAngle: .pi / 3, endAngle: -.pi / 4, clockwise: true)
        let bezier = UIBezierPath()
        bezier.move(to: CGPoint(x: 0, y: 0))
        bezier.addArc(withCenter: CGPoint(x: 40, y: 30), radius: 20, startAngle: .pi / 3, endAngle: -.pi / 4, clockwise: false)
        #expect(bezier.cgPath == mutable)
        // Its start follows a line from the current point, as both UIKit and Core Graphics do.
        guard case .addLineToPoint(let p) = bezier.cgPath.elements[1] else { Issue.record("expected a line"); return }
        #expect(close(p, CGPoint(x: 40 + 20 * cos(CGFloat.pi / 3), y: 30 + 20 * sin(CGFloat.pi / 3)), 1e-12))
        #expect(close(bezier.currentPoint, CGPoint(x: 40 + 20 * cos(CGFloat.pi / 4), y: 30 - 20 * sin(CGFloat.pi / 4)), 1e-12))
    }

    @Test func bezierBuildersLayOutLikeUIKit() {
        let rect = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(UIBezierPath(rect: rect).cgPath == CGPath(rect: rect))
        #expect(UIBezierPath(ovalIn: rect).cgPath == CGPath(ellipseIn: rect))
        guard case .moveToPoint(let ovalStart) = UIBezierPath(ovalIn: rect).cgPath.elements[0] else {
            Issue.record("expected a move"); return
        }
        #expect(ovalStart == CGPoint(x: 40, y: 40))   // (maxX, midY): three o'clock
        // A radius beyond half the shorter side (15) is clamped to it: circular corners of 15.
        #expect(UIBezierPath(roundedRect: rect, cornerRadius: 100).cgPath
                == CGPath(roundedRect: rect, cornerWidth: 15, cornerHeight: 15))
        #expect(UIBezierPath(roundedRect: rect, cornerRadius: 5).cgPath
                == CGPath(roundedRect: rect, cornerWidth: 5, cornerHeight: 5))

        let path = UIBezierPath()
        #expect(path.isEmpty)
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 3, y: 4))
        path.addQuadCurve(to: CGPoint(x: 5, y: 6), controlPoint: CGPoint(x: 7, y: 8))
        path.addCurve(to: CGPoint(x: 9, y: 10), controlPoint1: CGPoint(x: 11, y: 12), controlPoint2: CGPoint(x: 13, y: 14))
        path.close()
        #expect(path.cgPath.elements == [
            .moveToPoint(CGPoint(x: 1, y: 2)), .addLineToPoint(CGPoint(x: 3, y: 4)),
            .addQuadCurveToPoint(control: CGPoint(x: 7, y: 8), end: CGPoint(x: 5, y: 6)),
            .addCurveToPoint(control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14), end: CGPoint(x: 9, y: 10)),
            .closeSubpath,
        ])
        #expect(path.currentPoint == CGPoint(x: 1, y: 2))   // a close returns to the subpath's start
        #expect(path.bounds == CGRect(x: 1, y: 2, width: 12, height: 12))   // control points included

        // cgPath is a snapshot; setting it replaces the elements.
        let snapshot = path.cgPath
        path.addLine(to: CGPoint(x: 100, y: 100))
        #expect(snapshot.elements.count == 5)
        path.cgPath = CGPath(rect: rect)
        #expect(path.cgPath == CGPath(rect: rect))
        path.removeAllPoints()
        #expect(path.isEmpty)
    }

    @Test func bezierArcBeyondOneTurnWindsOnToo() {
        // UIKit clockwise true 0 → 3π: θ increases by 3π; length 3π·10, ending at θ = 3π (−10, 0).
        let path = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: 3 * .pi, clockwise: true).cgPath
        #expect(abs(PathSampler(path).totalLength / (30 * .pi) - 1) < 0.001)
        #expect(close(path.currentPoint, CGPoint(x: -10, y: 0), 1e-9))
        // A sweep the wrong way is still brought into one turn: clockwise false 0 → 2.5π decreases by 1.5π.
        let back = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: 2.5 * .pi, clockwise: false).cgPath
        #expect(abs(PathSampler(back).totalLength / (15 * .pi) - 1) < 0.001)
    }
}

import Foundation
import Testing
@testable import LayercastEngine

// CGMutablePath is a CGPath, as in Core Graphics: it assigns where a CGPath is taken, and what
// stores it keeps a snapshot.

@Suite("CGMutablePath as a CGPath")
struct MutablePathTests {
    @Test func mutablePathAssignsAsASnapshot() {
        let mutable = CGMutablePath()
        mutable.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        let shape = CAShapeLayer()
        shape.path = mutable              // compiles as on iOS: CGMutablePath is a CGPath
        shape.shadowPath = mutable
        let move = CAKeyframeAnimation(keyPath: "position")
        move.path = mutable
        mutable.addLine(to: CGPoint(x: 50, y: 50))   // after the assignments
        #expect(mutable.elements.count == 6)
        #expect(shape.path == CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(shape.path?.elements.count == 5)
        #expect(!(shape.path is CGMutablePath))
        #expect(shape.shadowPath?.elements.count == 5)
        #expect(move.path?.elements.count == 5)
        #expect(shape.path !== mutable)
    }

    @Test func copyIsTheSameObjectOnlyForAnImmutablePath() {
        let immutable = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(immutable.copy() === immutable)
        let mutable = CGMutablePath()
        mutable.move(to: .zero)
        let snapshot = mutable.copy()!
        #expect(snapshot !== mutable)
        #expect(snapshot == mutable)        // equal elements, whichever class
        mutable.addLine(to: CGPoint(x: 1, y: 1))
        #expect(snapshot != mutable)
        // mutableCopy() of an immutable path is a new, independent builder.
        let builder = immutable.mutableCopy()!
        builder.closeSubpath()
        #expect(immutable.elements.count == 5)
        #expect(builder.elements.count == 6)
    }

    @Test func anAnimationsMutablePathValueIsTakenWhenTheAnimationIsAdded() {
        SceneContext(clock: ManualClock()).run {
            let s = CAShapeLayer()
            let from = CGMutablePath()
            from.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
            let to = CGMutablePath()
            to.addRect(CGRect(x: 10, y: 20, width: 30, height: 40))
            let a = CABasicAnimation(keyPath: "path")
            a.fromValue = from
            a.toValue = to
            a.duration = 1
            s.add(a, forKey: "morph")
            // Read now, `to` would no longer have `from`'s structure and the path would not morph.
            to.addLine(to: CGPoint(x: 100, y: 100))
            // Every point a quarter of the way: the rect (2.5, 5, 15, 17.5).
            #expect(s.presentation(at: 0.25)!.path == CGPath(rect: CGRect(x: 2.5, y: 5, width: 15, height: 17.5)))
        }
    }
}

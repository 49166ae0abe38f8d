import Foundation
import LayercastEngine
import LayercastUIKit
import Testing

/// `UIView.animate` adds exactly the animations docs/engine-model.md §12.1 lists.
@Suite struct UIViewAnimateTests {
    @Test func centerAddsAnAdditivePositionAnimationFromOldMinusNewToZero() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))   // center (10, 10)
        stage.run { UIView.animate(withDuration: 0.4) { view.center = CGPoint(x: 110, y: 60) } }
        #expect(view.layer.animationKeys() == ["position"])
        let animation = try #require(view.layer.animation(forKey: "position") as? CABasicAnimation)
        #expect(type(of: animation) == CABasicAnimation.self)
        #expect(animation.keyPath == "position")
        #expect(animation.isAdditive)
        #expect(animation.fromValue as? CGPoint == CGPoint(x: -100, y: -50))
        #expect(animation.toValue as? CGPoint == CGPoint.zero)
        #expect(animation.fillMode == .both)
        #expect(animation.duration == 0.4)
        #expect(animation.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
        #expect(animation.isRemovedOnCompletion)
        #expect(view.layer.position == CGPoint(x: 110, y: 60))   // the model is the new value at once
        let start = try #require(view.layer.presentation(at: 0))
        #expect(start.position == CGPoint(x: 10, y: 10))
    }

    @Test func boundsAddsOriginAndSizeAnimationsAndFrameAddsPositionToo() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 200, height: 200))
        stage.run {
            UIView.animate(withDuration: 0.3, delay: 0, options: .curveLinear, animations: {
                view.frame = CGRect(x: 40, y: 40, width: 100, height: 100)
            })
        }
        #expect(view.layer.animationKeys() == ["bounds.origin", "bounds.size", "position"])
        let origin = try #require(view.layer.animation(forKey: "bounds.origin") as? CABasicAnimation)
        let size = try #require(view.layer.animation(forKey: "bounds.size") as? CABasicAnimation)
        let position = try #require(view.layer.animation(forKey: "position") as? CABasicAnimation)
        #expect(origin.isAdditive && size.isAdditive && position.isAdditive)
        #expect(origin.fromValue as? CGPoint == CGPoint.zero && origin.toValue as? CGPoint == CGPoint.zero)
        #expect(size.fromValue as? CGSize == CGSize(width: 100, height: 100) && size.toValue as? CGSize == CGSize.zero)
        #expect(position.fromValue as? CGPoint == CGPoint(x: 10, y: 10))   // the centre moves (100, 100) → (90, 90)
        #expect(size.timingFunction == CAMediaTimingFunction(name: .linear))
        let halfway = try #require(view.layer.presentation(at: 0.15))
        #expect(abs(halfway.bounds.width - 150) < 1e-9)
    }

    @Test func transformIsAdditiveFromOldTimesInverseNewToIdentity() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        stage.run { UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.transform = CGAffineTransform(scaleX: 2, y: 2) }) }
        let animation = try #require(view.layer.animation(forKey: "transform") as? CABasicAnimation)
        #expect(animation.isAdditive)
        let from = try #require(animation.fromValue as? CATransform3D)
        #expect(abs(from.m11 - 0.5) < 1e-12 && abs(from.m22 - 0.5) < 1e-12)
        #expect(animation.toValue as? CATransform3D == CATransform3DIdentity)
        // Half-way the scale is 1.5: (0.5 → 1 at 0.5 = 0.75) applied before the model's 2.
        #expect(abs(try #require(view.layer.presentation(at: 0.5)).transform.m11 - 1.5) < 1e-9)
    }

    @Test func alphaReplacesFromTheOldValueOrWithBeginFromCurrentStateFromWhatIsShown() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        stage.run { UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.alpha = 0 }) }
        let first = try #require(view.layer.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(!first.isAdditive)
        #expect(first.fromValue as? Float == 1)
        #expect(first.toValue == nil)
        stage.advance(to: 0.5)
        stage.run { UIView.animate(withDuration: 1, delay: 0, options: .beginFromCurrentState, animations: { view.alpha = 1 }) }
        #expect(view.layer.animationKeys() == ["opacity"])   // replaced under the same key
        let second = try #require(view.layer.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(second.fromValue as? Float == 0.5)
        stage.run { UIView.animate(withDuration: 1, delay: 0, options: [], animations: { view.alpha = 0.2 }) }
        #expect((view.layer.animation(forKey: "opacity") as? CABasicAnimation)?.fromValue as? Float == 1)   // the old model value
    }

    /// docs/engine-model.md §12.1: two overlapping blocks on the centre blend additively.
    @Test func overlappingBlocksBlendAndBothComplete() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: -10, y: -10, width: 20, height: 20))   // center (0, 0)
        var completed: [(String, Bool, CFTimeInterval)] = []
        stage.run {
            UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.center.x = 100 },
                           completion: { completed.append(("first", $0, CACurrentMediaTime())) })
        }
        stage.advance(to: 0.5)
        #expect(abs(try #require(view.layer.presentation(at: 0.5)).position.x - 50) < 1e-9)
        stage.run {
            UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.center.x = 0 },
                           completion: { completed.append(("second", $0, CACurrentMediaTime())) })
        }
        #expect(view.layer.animationKeys() == ["position", "position-2"])
        // At 0.5: 0 + (−100 → 0 at 0.5 = −50) + (100 → 0 at 0 = 100) = 50, no jump.
        #expect(abs(try #require(view.layer.presentation(at: 0.5)).position.x - 50) < 1e-9)
        // At 0.75: 0 − 25 + 75 = 50; at 1.25 (the first has ended): 0 + 25 = 25.
        #expect(abs(try #require(view.layer.presentation(at: 0.75)).position.x - 50) < 1e-9)
        stage.advance(to: 1.25)
        #expect(abs(try #require(view.layer.presentation(at: 1.25)).position.x - 25) < 1e-9)
        stage.advance(to: 2)
        #expect(completed.map(\.0) == ["first", "second"])
        #expect(completed.map(\.1) == [true, true])
        #expect(completed.map(\.2) == [1, 1.5])
    }

    @Test func aReplacedAnimationCompletesUnfinished() {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        var calls: [String] = []
        stage.run { UIView.animate(withDuration: 1, animations: { view.alpha = 0 }, completion: { calls.append("first \($0)") }) }
        stage.advance(to: 0.5)
        stage.run { UIView.animate(withDuration: 1, animations: { view.alpha = 1 }, completion: { calls.append("second \($0)") }) }
        stage.advance(to: 0.6)
        #expect(calls == ["first false"])
        stage.advance(to: 1.5)
        #expect(calls == ["first false", "second true"])
    }

    @Test func delayHoldsTheOldValueAndRepeatAndAutoreverseAreSet() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        stage.advance(to: 2)
        stage.run {
            UIView.animate(withDuration: 1, delay: 0.5, options: [.repeat, .autoreverse, .curveLinear], animations: { view.center.x = 110 })
        }
        let animation = try #require(view.layer.animation(forKey: "position"))
        #expect(animation.beginTime == 2.5)
        #expect(animation.repeatCount == .infinity)
        #expect(animation.autoreverses)
        #expect(try #require(view.layer.presentation(at: 2.25)).position.x == 10)   // filled backwards
        #expect(abs(try #require(view.layer.presentation(at: 3)).position.x - 60) < 1e-9)
        #expect(abs(try #require(view.layer.presentation(at: 4)).position.x - 60) < 1e-9)   // on its way back
    }

    @Test func zeroDurationChangesAtOnceAndCompletesOnTheNextTurn() {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        var finished: Bool?
        stage.run { UIView.animate(withDuration: 0, animations: { view.alpha = 0.5 }, completion: { finished = $0 }) }
        #expect(view.layer.animationKeys() == nil)
        #expect(view.alpha == 0.5)
        #expect(finished == nil)
        stage.advance(to: 0)
        #expect(finished == true)
    }

    @Test func nestedBlocksInheritDurationAndCurveUnlessOverridden() throws {
        let stage = SceneClock()
        let a = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20)), b = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        stage.run {
            UIView.animate(withDuration: 2, delay: 0, options: .curveLinear, animations: {
                UIView.animate(withDuration: 0.5) { a.alpha = 0 }
                UIView.animate(withDuration: 0.5, delay: 0, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveEaseIn], animations: { b.alpha = 0 })
            })
        }
        let inherited = try #require(a.layer.animation(forKey: "opacity"))
        #expect(inherited.duration == 2 && inherited.timingFunction == CAMediaTimingFunction(name: .linear))
        let own = try #require(b.layer.animation(forKey: "opacity"))
        #expect(own.duration == 0.5 && own.timingFunction == CAMediaTimingFunction(name: .easeIn))
    }

    @Test func viewsDoNotAnimateOutsideBlocks() {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        stage.run {
            view.center = CGPoint(x: 50, y: 50)
            view.alpha = 0.3
            view.layer.cornerRadius = 4   // the layer of a view has no implicit animations either
        }
        #expect(view.layer.animationKeys() == nil)
    }
}

import Foundation
import LayercastEngine
import LayercastUIKit
import Testing

/// `animateKeyframes` and `transition(with:)` add what docs/engine-model.md §12.3–12.4 say.
@Suite struct KeyframeAndTransitionTests {
    @Test func keyframesBecomeOneKeyframeAnimationPerProperty() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: -10, y: -10, width: 20, height: 20))   // center (0, 0)
        var finished: (Bool, CFTimeInterval)?
        stage.run {
            UIView.animateKeyframes(withDuration: 2, delay: 0, options: [], animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { view.center = CGPoint(x: 100, y: 0) }
                UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.25) { view.center = CGPoint(x: 100, y: 100) }
                UIView.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.5) { view.alpha = 0 }
            }, completion: { finished = ($0, CACurrentMediaTime()) })
        }
        #expect(view.layer.animationKeys() == ["position", "opacity"])
        let position = try #require(view.layer.animation(forKey: "position") as? CAKeyframeAnimation)
        #expect(position.values?.compactMap { $0 as? CGPoint } == [.zero, CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100), CGPoint(x: 100, y: 100)])
        #expect(position.keyTimes == [0, 0.5, 0.75, 1])
        #expect(position.calculationMode == .linear && !position.isAdditive && position.fillMode == .both && position.duration == 2)
        let opacity = try #require(view.layer.animation(forKey: "opacity") as? CAKeyframeAnimation)
        #expect(opacity.values?.compactMap { $0 as? Float } == [1, 1, 0, 0])
        #expect(opacity.keyTimes == [0, 0.25, 0.75, 1])
        let at = { (t: CFTimeInterval) in try #require(view.layer.presentation(at: t)) }
        #expect(try at(0.5).position == CGPoint(x: 50, y: 0))
        #expect(try at(1.25).position == CGPoint(x: 100, y: 50))
        #expect(abs(try at(1).opacity - 0.5) < 1e-6)
        stage.advance(to: 2)
        #expect(finished?.0 == true && finished?.1 == 2)
    }

    @Test func calculationModeComesFromTheOptions() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 20, height: 20))
        stage.run {
            UIView.animateKeyframes(withDuration: 1, delay: 0, options: .calculationModeDiscrete, animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { view.alpha = 0.5 }
            })
        }
        #expect((view.layer.animation(forKey: "opacity") as? CAKeyframeAnimation)?.calculationMode == .discrete)
    }

    @Test func aFlipTurnsTheViewAndSwitchesItsSubviewsHalfWay() throws {
        let stage = SceneClock()
        let card = stage.view(CGRect(x: 0, y: 0, width: 100, height: 150))
        let front = UIView(frame: card.bounds), back = UIView(frame: card.bounds)
        back.isHidden = true
        card.addSubview(back)
        card.addSubview(front)
        var finished: Bool?
        stage.run {
            UIView.transition(with: card, duration: 0.6, options: .transitionFlipFromLeft, animations: {
                front.isHidden = true
                back.isHidden = false
            }, completion: { finished = $0 })
        }
        let turn = try #require(card.layer.animation(forKey: "transition") as? CAKeyframeAnimation)
        #expect(turn.keyPath == "transform" && turn.isAdditive && turn.keyTimes == [0, 0.5, 0.5, 1])
        #expect(turn.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut) && turn.duration == 0.6)
        let halfTurn = try #require(turn.values?[1] as? CATransform3D)
        #expect(abs(halfTurn.m11) < 1e-9)                    // edge-on: rotated a quarter about y
        let flat = try #require(turn.values?[0] as? CATransform3D)
        #expect(abs(flat.m34 + 1.0 / 300) < 1e-12)             // in perspective, the eye at twice 150
        let hide = try #require(front.layer.animation(forKey: "transition.hidden") as? CAKeyframeAnimation)
        #expect(hide.calculationMode == .discrete && hide.keyTimes == [0, 0.5])
        #expect(try #require(front.layer.presentation(at: 0.29)).isHidden == false)
        #expect(try #require(front.layer.presentation(at: 0.31)).isHidden == true)
        #expect(try #require(back.layer.presentation(at: 0.29)).isHidden == true)
        #expect(try #require(back.layer.presentation(at: 0.31)).isHidden == false)
        // A quarter of the way, the card is turned part way: narrower on screen.
        let quarter = try #require(card.layer.presentation(at: 0.15)).transform
        #expect(quarter.m11 > 0.1 && quarter.m11 < 0.99)
        stage.advance(to: 0.6)
        #expect(finished == true)
        #expect(card.layer.animationKeys() == nil)
    }

    @Test func aCrossDissolveFadesTheViewThatHides() throws {
        let stage = SceneClock()
        let box = stage.view(CGRect(x: 0, y: 0, width: 100, height: 100))
        let label = UIView(frame: box.bounds)
        box.addSubview(label)
        stage.run {
            UIView.transition(with: box, duration: 1, options: [.transitionCrossDissolve, .curveLinear], animations: { label.isHidden = true })
        }
        #expect(box.layer.animation(forKey: "transition") == nil)
        let shown = try #require(label.layer.presentation(at: 0.25))
        #expect(shown.isHidden == false && abs(shown.opacity - 0.75) < 1e-6)
        stage.advance(to: 1)
        #expect(try #require(label.layer.presentation(at: 1)).isHidden)
    }
}

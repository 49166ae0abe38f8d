import Foundation
import LayercastEngine
import LayercastUIKit
import Testing

/// `UIViewPropertyAnimator` scrubs, pauses, reverses and completes on the scene's clock (§12.5).
@Suite struct PropertyAnimatorTests {
    @Test func pausedAtAFractionItShowsThatFractionAndResumesFromIt() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: -10, y: -10, width: 20, height: 20))
        var ended: [UIViewAnimatingPosition] = []
        let animator = stage.run { UIViewPropertyAnimator(duration: 2, curve: .linear) { view.center.x = 200 } }
        animator.addCompletion { ended.append($0) }
        stage.run {
            animator.pauseAnimation()
            animator.fractionComplete = 0.25
        }
        #expect(animator.state == .active && !animator.isRunning)
        #expect(abs(try #require(view.layer.presentation(at: 0)).position.x - 50) < 1e-9)
        stage.advance(to: 5)   // paused: nothing moves
        #expect(abs(try #require(view.layer.presentation(at: 5)).position.x - 50) < 1e-9)
        stage.run { animator.startAnimation() }
        #expect(abs(try #require(view.layer.presentation(at: 6)).position.x - 150) < 1e-9)
        #expect(abs(stage.run { animator.fractionComplete } - 0.25) < 1e-9)
        stage.advance(to: 6)
        #expect(abs(stage.run { animator.fractionComplete } - 0.75) < 1e-9)
        stage.advance(to: 6.5)
        #expect(ended == [.end])
        #expect(animator.state == .inactive)
        #expect(view.center.x == 200 && view.layer.animationKeys() == nil)
    }

    @Test func reversedItRunsBackAndEndsAtTheStartValues() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: -10, y: -10, width: 20, height: 20))
        var ended: [(UIViewAnimatingPosition, CFTimeInterval)] = []
        stage.run {
            let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 100; view.alpha = 0 }
            animator.addCompletion { ended.append(($0, CACurrentMediaTime())) }
            animator.startAnimation()
            stage.advance(to: 0.6)
            animator.isReversed = true
        }
        #expect(abs(try #require(view.layer.presentation(at: 0.8)).position.x - 40) < 1e-9)
        stage.advance(to: 1.3)
        #expect(ended.count == 1 && ended[0].0 == .start && abs(ended[0].1 - 1.2) < 1e-9)
        #expect(view.center.x == 0 && view.alpha == 1)
        #expect(view.layer.animationKeys() == nil)
    }

    @Test func stoppedItKeepsWhatIsShownAndFinishesWhereAsked() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: -10, y: -10, width: 20, height: 20))
        var ended: [UIViewAnimatingPosition] = []
        let animator = stage.run { UIViewPropertyAnimator.runningPropertyAnimator(withDuration: 1, delay: 0, options: .curveLinear,
                                                                                 animations: { view.center.x = 100 }, completion: { ended.append($0) }) }
        stage.advance(to: 0.3)
        stage.run { animator.stopAnimation(false) }
        #expect(animator.state == .stopped)
        #expect(abs(view.center.x - 30) < 1e-9)
        stage.run { animator.finishAnimation(at: .current) }
        #expect(ended == [.current] && animator.state == .inactive)
    }
}

import Foundation
import LayercastEngine
import LayercastUIKit
import Testing

/// Bad input is refused with a `UIKitError` and leaves the scene running (§12.7). Serialized:
/// the error log is the process's.
@Suite(.serialized) struct BadInputTests {
    @Test func aNaNFrameChangesNothing() {
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let before = UIKitErrors.shared.count
        view.frame = CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10)
        #expect(UIKitErrors.shared.count == before + 1)
        #expect(UIKitErrors.shared.last?.call == "UIView.frame")
        #expect(view.frame == CGRect(x: 0, y: 0, width: 10, height: 10))
        view.center = CGPoint(x: CGFloat.infinity, y: 0)
        #expect(UIKitErrors.shared.last?.call == "UIView.center")
        #expect(view.center == CGPoint(x: 5, y: 5))
    }

    @Test func aViewAddedToItselfOrItsDescendantChangesNothing() {
        let parent = UIView(), child = UIView()
        parent.addSubview(child)
        parent.addSubview(parent)
        #expect(UIKitErrors.shared.last?.message.contains("its own subview") == true)
        child.addSubview(parent)
        #expect(UIKitErrors.shared.last?.message.contains("cycle") == true)
        #expect(parent.subviews.count == 1 && child.subviews.isEmpty && parent.superview == nil)
        #expect(parent.layer.sublayers?.count == 1)
    }

    @Test func aNegativeDurationAnimatesNothingAndStillCompletes() {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 10, height: 10))
        var finished: Bool?
        stage.run { UIView.animate(withDuration: -1, animations: { view.alpha = 0 }, completion: { finished = $0 }) }
        #expect(UIKitErrors.shared.last?.call == "UIView.animate(withDuration:…)")
        #expect(view.alpha == 0 && view.layer.animationKeys() == nil)
        stage.advance(to: 0)
        #expect(finished == true)
    }

    @Test func aZeroDampingRatioIsReportedAndAnimatedCriticallyDamped() throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 10, height: 10))
        stage.run {
            UIView.animate(withDuration: 1, delay: 0, usingSpringWithDamping: 0, initialSpringVelocity: 0, animations: { view.center.x = 50 })
        }
        #expect(UIKitErrors.shared.last?.message.contains("damping ratio 0.0") == true)
        let spring = try #require(view.layer.animation(forKey: "position") as? CASpringAnimation)
        #expect(abs(spring.damping - 2 * spring.stiffness.squareRoot()) < 1e-9)
    }

    @Test func theFirstRefusalOfACallIsReportedOnce() {
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var calls: [String] = []
        }
        let heard = Heard()
        UIKitErrors.shared.report = { error in heard.lock.withLock { heard.calls.append(error.call) } }
        defer { UIKitErrors.shared.report = nil }
        let stage = SceneClock()
        let view = stage.view(CGRect(x: 0, y: 0, width: 10, height: 10))
        let before = UIKitErrors.shared.count
        stage.run {
            for _ in 0..<2 { UIView.transition(with: view, duration: 0.2, options: .transitionCurlUp, animations: { view.alpha = 0.5 }) }
        }
        #expect(UIKitErrors.shared.count == before + 2)
        #expect(heard.lock.withLock { heard.calls } == ["UIView.transition(with:duration:options:…)"])
        #expect(view.layer.animation(forKey: "transition.opacity") != nil)   // run as a cross-dissolve
    }
}

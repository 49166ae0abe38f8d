import Foundation
import Testing
@testable import LayercastEngine

// Implicit animations, CATransaction, delegate events, scene timers and completion blocks
// (docs/engine-model.md §8), on a SceneContext driven by a ManualClock and `advance(to:)`.

/// Everything that happened, with the media time each callback saw.
private final class EventLog {
    var entries: [String] = []
    func record(_ what: String) {
        entries.append("\(what)@\(CACurrentMediaTime())")
    }
}

private final class Delegate: CAAnimationDelegate {
    let name: String
    let log: EventLog
    var onStop: ((Bool) -> Void)?
    init(_ name: String, _ log: EventLog) { (self.name, self.log) = (name, log) }
    func animationDidStart(_ anim: CAAnimation) { log.record("start \(name)") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        log.record("stop \(name) \(flag)")
        onStop?(flag)
    }
}

/// A root with one sublayer `layer` at position (0, 0); built outside any transaction so nothing
/// animates implicitly while it is assembled.
private func tree() -> (root: CALayer, layer: CALayer) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
    root.position = CGPoint(x: 200, y: 200)
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.position = .zero
    root.addSublayer(layer)
    return (root, layer)
}

private func ramp(duration: CFTimeInterval, beginTime: CFTimeInterval = 0, delegate: CAAnimationDelegate? = nil) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: "cornerRadius")
    a.fromValue = CGFloat(0)
    a.toValue = CGFloat(10)
    a.duration = duration
    a.beginTime = beginTime
    a.delegate = delegate
    return a
}

@Suite("Transactions and events")
struct TransactionAndEventTests {
    // MARK: Implicit animations

    @Test func changingPositionInATreeAnimatesImplicitly() {
        // §8: an implicit CABasicAnimation from the presentation value to the new model value, over
        // the transaction's duration (0.25 s) with the `default` curve.
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run { layer.position = CGPoint(x: 100, y: 0) }
        #expect(layer.position == CGPoint(x: 100, y: 0))                 // the model changes at once
        #expect(layer.animationKeys() == ["position"])
        let implicit = layer.animation(forKey: "position") as? CABasicAnimation
        #expect(implicit?.duration == 0.25)
        #expect(implicit?.timingFunction == CAMediaTimingFunction(name: .default))
        #expect(close(layer.presentation(at: 0)!.position.x, 0))
        let half = 100 * defaultCurve(0.5)
        #expect(close(layer.presentation(at: 0.125)!.position.x, half, 1e-6))
        #expect(close(half, 80.24, 0.01))                                   // the default curve at 0.5
        #expect(layer.presentation(at: 0.25)!.position.x == 100)           // over: the model value

        // Retargeting mid-flight starts from the presented value (§8), replacing the old animation.
        clock.now = 0.125
        let presented = layer.presentation(at: 0.125)!.position.x
        context.run { layer.position = CGPoint(x: 200, y: 0) }
        #expect(layer.animationKeys() == ["position"])
        #expect(close(layer.presentation(at: 0.125)!.position.x, presented, 1e-9))
        #expect(close(layer.presentation(at: 0.25)!.position.x, presented + (200 - presented) * defaultCurve(0.5), 1e-6))
    }

    @Test func disableActionsSuppressesImplicitAnimation() {
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            #expect(CATransaction.disableActions())
            layer.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
            #expect(!CATransaction.disableActions())
        }
        #expect(layer.animationKeys() == nil)
        #expect(layer.presentation(at: 0.1)!.position == CGPoint(x: 100, y: 0))
    }

    @Test func aLayerWithoutSuperlayerDoesNotAnimateImplicitly() {
        let context = SceneContext(clock: ManualClock())
        let lonely = CALayer()
        context.run { lonely.position = CGPoint(x: 100, y: 0) }
        #expect(lonely.animationKeys() == nil)
        #expect(lonely.presentation(at: 0.1)!.position == CGPoint(x: 100, y: 0))
    }

    @Test func nullActionDisablesOnlyThatKey() {
        // §8: "unless ... the layer's actions maps the key to nil" (NSNull, as on iOS).
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        layer.actions = ["position": NSNull()]
        context.run {
            layer.position = CGPoint(x: 100, y: 0)
            layer.opacity = 0
        }
        #expect(layer.animationKeys() == ["opacity"])
        #expect(layer.presentation(at: 0.1)!.position == CGPoint(x: 100, y: 0))
        #expect(layer.presentation(at: 0.1)!.opacity > 0)
    }

    @Test func settingTheSameValueDoesNotAnimate() {
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run { layer.position = .zero }
        #expect(layer.animationKeys() == nil)
    }

    @Test func transactionDurationAndTimingFunctionShapeImplicitAnimations() {
        // §8: setAnimationDuration / setAnimationTimingFunction apply to the innermost transaction.
        let context = SceneContext(clock: ManualClock())
        let (slowRoot, slow) = tree()
        defer { withExtendedLifetime(slowRoot) {} }  // layers hold their superlayer weakly
        let (linearRoot, linear) = tree()
        defer { withExtendedLifetime(linearRoot) {} }  // layers hold their superlayer weakly
        context.run {
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            slow.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()

            CATransaction.begin()
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            linear.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
        }
        #expect(slow.animation(forKey: "position")?.duration == 1)
        #expect(close(slow.presentation(at: 0.5)!.position.x, 100 * defaultCurve(0.5), 1e-6))
        #expect(slow.presentation(at: 0.9)!.position.x < 100)
        #expect(slow.presentation(at: 1)!.position.x == 100)
        #expect(close(linear.presentation(at: 0.125)!.position.x, 50))
    }

    @Test func customActionAnimationRunsFromThePresentedValue() {
        // A CABasicAnimation without values in `actions` animates from the old presented value
        // to the new model value with its own timing.
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        let action = CABasicAnimation(keyPath: "position")
        action.duration = 2
        layer.actions = ["position": action]
        context.run { layer.position = CGPoint(x: 100, y: 0) }
        #expect(layer.animation(forKey: "position")?.duration == 2)
        #expect(close(layer.presentation(at: 1)!.position.x, 50))
    }

    // MARK: Delegate events

    @Test func delegateHearsStartAndStopAtTheirExactTimes() {
        // §8: animationDidStart when the active time begins, animationDidStop(finished: true) at
        // the end, both at their exact media times whatever the step of advance(to:).
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run { layer.add(ramp(duration: 0.75, beginTime: 0.5, delegate: Delegate("a", log)), forKey: "a") }
        context.advance(to: 0.25)
        #expect(log.entries.isEmpty)
        context.advance(to: 0.5)
        #expect(log.entries == ["start a@0.5"])
        context.advance(to: 1.2)
        #expect(log.entries == ["start a@0.5"])
        context.advance(to: 10)
        #expect(log.entries == ["start a@0.5", "stop a true@1.25"])
        context.advance(to: 20)
        #expect(log.entries.count == 2)                                      // once
        #expect(layer.animationKeys() == nil)                               // removedOnCompletion
    }

    @Test func eventsAreTheSameAtAnyFrameRate() {
        func run(step: CFTimeInterval) -> [String] {
            let log = EventLog()
            let context = SceneContext(clock: ManualClock())
            let (root, layer) = tree()
            defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
            context.run {
                layer.add(ramp(duration: 0.75, beginTime: 0.5, delegate: Delegate("a", log)), forKey: "a")
                layer.add(ramp(duration: 1, delegate: Delegate("b", log)), forKey: "b")
                context.schedule(after: 0.3, repeating: 0.4) { timer in
                    log.record("timer")
                    if CACurrentMediaTime() > 1.4 { timer.invalidate() }
                }
            }
            var t: CFTimeInterval = 0
            while t < 3 {
                t += step
                context.advance(to: t)
            }
            return log.entries
        }
        let once = run(step: 3)
        #expect(run(step: 1.0 / 60) == once)
        #expect(run(step: 0.1) == once)
        #expect(once.count == 8)
    }

    @Test func removingAnAnimationStopsItUnfinished() {
        let log = EventLog()
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run { layer.add(ramp(duration: 5, delegate: Delegate("a", log)), forKey: "a") }
        context.advance(to: 1)
        clock.now = 1
        context.run { layer.removeAnimation(forKey: "a") }
        #expect(layer.animationKeys() == nil)
        context.advance(to: 10)
        #expect(log.entries == ["start a@0.0", "stop a false@1.0"])
    }

    @Test func replacingUnderTheSameKeyStopsTheOldOneUnfinished() {
        let log = EventLog()
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run { layer.add(ramp(duration: 5, delegate: Delegate("old", log)), forKey: "k") }
        context.advance(to: 1)
        clock.now = 1
        context.run { layer.add(ramp(duration: 1, delegate: Delegate("new", log)), forKey: "k") }
        context.advance(to: 10)
        #expect(log.entries == ["start old@0.0", "stop old false@1.0", "start new@1.0", "stop new true@2.0"])
        #expect(layer.animationKeys() == nil)
    }

    @Test func removedOnCompletionFalseKeepsTheAnimation() {
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run {
            let a = ramp(duration: 1, delegate: Delegate("a", log))
            a.isRemovedOnCompletion = false
            a.fillMode = .forwards
            layer.add(a, forKey: "a")
            layer.add(ramp(duration: 1), forKey: "b")
        }
        context.advance(to: 2)
        #expect(log.entries == ["start a@0.0", "stop a true@1.0"])
        #expect(layer.animationKeys() == ["a"])
        #expect(layer.presentation(at: 5)!.cornerRadius == 10)
        // Removing it later does not tell the delegate again (animationDidStop is sent once).
        context.run { layer.removeAnimation(forKey: "a") }
        context.advance(to: 3)
        #expect(log.entries.count == 2)
    }

    @Test func stopEventsFollowLayerTime() {
        // §1: the end is at the media time whose layer time is beginTime + A/speed; a child of a
        // speed-2 root finishes a 1 s animation after 0.5 s; a paused layer never finishes it.
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        root.speed = 2
        let paused = CALayer()
        paused.speed = 0
        context.run {
            layer.add(ramp(duration: 1, delegate: Delegate("fast", log)), forKey: "a")
            paused.add(ramp(duration: 1, delegate: Delegate("paused", log)), forKey: "a")
        }
        context.advance(to: 100)
        #expect(log.entries.contains("stop fast true@0.5"))
        #expect(!log.entries.contains { $0.hasPrefix("stop paused") })
    }

    @Test func eventsFollowTimeChangesMadeAfterTheyWereDue() {
        // §1, §8: an event's media time is found through the layer's time as it is when the event
        // is delivered, after any change to the layer's or an ancestor's timing, its place in the
        // tree, or a time parent going away.
        let log = EventLog()
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let (root, layer) = tree()
        let other = CALayer()
        let paused = CALayer()
        paused.speed = 0
        defer { withExtendedLifetime((root, paused)) {} }  // layers hold their superlayer weakly
        var parent: CALayer? = CALayer()
        parent!.speed = 2
        let orphan = CALayer()
        parent!.addSublayer(orphan)
        var doomed: CALayer? = CALayer()
        root.addSublayer(doomed!)
        root.addSublayer(other)
        context.run {
            layer.add(ramp(duration: 2, delegate: Delegate("sped", log)), forKey: "a")      // ends at 2, then at 1
            other.add(ramp(duration: 1, delegate: Delegate("moved", log)), forKey: "a")     // 1, then never, then 3
            orphan.add(ramp(duration: 1, delegate: Delegate("orphan", log)), forKey: "a")   // 0.5, then 1
            doomed!.add(ramp(duration: 1, delegate: Delegate("doomed", log)), forKey: "a")  // gone before its end
        }
        context.advance(to: 0.25)
        #expect(log.entries == ["start sped@0.0", "start moved@0.0", "start orphan@0.0", "start doomed@0.0"])
        clock.now = 0.25
        root.speed = 2                        // the root's time jumps from 0.25 to 0.5
        paused.addSublayer(other)             // out of the root, into a paused layer
        parent = nil                          // the orphan's time is media time now
        doomed!.removeFromSuperlayer()
        doomed = nil
        context.advance(to: 3)
        #expect(Array(log.entries.dropFirst(4)) == ["stop sped true@1.0", "stop orphan true@1.0"])
        clock.now = 3
        root.speed = 1
        root.addSublayer(other)               // back: its time is 3, past its end
        context.advance(to: 4)
        #expect(Array(log.entries.dropFirst(6)) == ["stop moved true@3.0"])
    }

    @Test func currentMediaTimeInsideACallbackIsTheEventTime() {
        // §8: "CACurrentMediaTime() inside a callback is the event's time", even when the clock and
        // the advance target are far later; work started in the callback starts then.
        let log = EventLog()
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        var seen: [CFTimeInterval] = []
        let delegate = Delegate("a", log)
        delegate.onStop = { _ in
            seen.append(CACurrentMediaTime())
            CATransaction.begin()
            CATransaction.setAnimationDuration(100)
            layer.position = CGPoint(x: 100, y: 0)   // an implicit animation begins at 1.25
            CATransaction.commit()
        }
        context.run { layer.add(ramp(duration: 0.75, beginTime: 0.5, delegate: delegate), forKey: "a") }
        clock.now = 10
        context.advance()                            // up to the clock's now
        #expect(seen == [1.25])
        #expect(close(layer.presentation(at: 1.25 + 50)!.position.x, 100 * defaultCurve(0.5), 1e-6))
        context.run { #expect(CACurrentMediaTime() == 10) }   // outside callbacks: the clock
    }

    // MARK: Timers

    @Test func timersInterleaveWithAnimationStopsInTimeOrder() {
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run {
            layer.add(ramp(duration: 1, delegate: Delegate("a", log)), forKey: "a")
            layer.add(ramp(duration: 1.5, delegate: Delegate("b", log)), forKey: "b")
            context.schedule(after: 0.25, repeating: 0.5) { _ in log.record("tick") }
        }
        context.advance(to: 2)
        #expect(log.entries == [
            "start a@0.0", "start b@0.0",
            "tick@0.25", "tick@0.75", "stop a true@1.0", "tick@1.25", "stop b true@1.5", "tick@1.75",
        ])
    }

    @Test func timerScheduledInACallbackFiresRelativeToTheEvent() {
        // Seed 2: "When it stops ... 0.3 s later, report completion".
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        let delegate = Delegate("a", log)
        delegate.onStop = { _ in
            context.schedule(after: 0.3) { _ in log.record("done") }
        }
        context.run { layer.add(ramp(duration: 1.25, delegate: delegate), forKey: "a") }
        context.advance(to: 5)
        #expect(log.entries == ["start a@0.0", "stop a true@1.25", "done@\(1.25 + 0.3)"])
    }

    @Test func oneShotAndInvalidatedTimers() {
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        var repeating: SceneTimer?
        context.run {
            context.schedule(after: 1) { _ in log.record("once") }
            repeating = context.schedule(after: 0.5, repeating: 0.5) { _ in log.record("every") }
        }
        context.advance(to: 1.2)
        repeating?.invalidate()
        context.advance(to: 5)
        #expect(log.entries == ["every@0.5", "once@1.0", "every@1.0"])
        #expect(repeating?.isValid == false)
    }

    // MARK: Completion blocks

    @Test func completionBlockRunsAfterAllItsAnimationsStopped() {
        // §8: setCompletionBlock runs when every animation added inside the transaction has stopped.
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run {
            CATransaction.begin()
            CATransaction.setCompletionBlock { log.record("complete") }
            layer.add(ramp(duration: 1, delegate: Delegate("a", log)), forKey: "a")
            layer.add(ramp(duration: 2, delegate: Delegate("b", log)), forKey: "b")
            CATransaction.commit()
            layer.add(ramp(duration: 3, delegate: Delegate("outside", log)), forKey: "c")
        }
        context.advance(to: 1.5)
        #expect(!log.entries.contains { $0.hasPrefix("complete") })
        context.advance(to: 10)
        #expect(log.entries == [
            "start a@0.0", "start b@0.0", "start outside@0.0",
            "stop a true@1.0", "stop b true@2.0", "complete@2.0", "stop outside true@3.0",
        ])
    }

    @Test func completionBlockCountsImplicitAnimationsAndRemovals() {
        let log = EventLog()
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run {
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            CATransaction.setCompletionBlock { log.record("complete") }
            layer.position = CGPoint(x: 100, y: 0)                  // implicit, 2 s
            layer.add(ramp(duration: 10), forKey: "long")
            CATransaction.commit()
        }
        context.advance(to: 3)
        #expect(log.entries.isEmpty)                                // "long" still runs
        clock.now = 3
        context.run { layer.removeAnimation(forKey: "long") }
        context.advance(to: 3)
        #expect(log.entries == ["complete@3.0"])
    }

    @Test func completionBlockWithoutAnimationsRunsAtTheNextAdvance() {
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        context.run {
            CATransaction.begin()
            CATransaction.setCompletionBlock { log.record("complete") }
            CATransaction.commit()
        }
        context.advance(to: 0)
        #expect(log.entries == ["complete@0.0"])
    }

    @Test func nestedTransactionsCompleteInnerFirst() {
        let log = EventLog()
        let context = SceneContext(clock: ManualClock())
        let (root, layer) = tree()
        defer { withExtendedLifetime(root) {} }  // layers hold their superlayer weakly
        context.run {
            CATransaction.begin()
            CATransaction.setCompletionBlock { log.record("outer") }
            layer.add(ramp(duration: 2), forKey: "a")
            CATransaction.begin()
            CATransaction.setCompletionBlock { log.record("inner") }
            layer.add(ramp(duration: 1), forKey: "b")
            CATransaction.commit()
            CATransaction.commit()
        }
        context.advance(to: 5)
        #expect(log.entries == ["inner@1.0", "outer@2.0"])
    }
}

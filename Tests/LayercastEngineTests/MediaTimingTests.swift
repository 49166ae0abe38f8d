import Foundation
import Testing
@testable import LayercastEngine

// The CAMediaTiming model (docs/engine-model.md §1 layer time, §2 animation time) exercised through
// real layers and animations: every value is read back with `presentation(at:)`, which takes media
// time. Unless a test says otherwise the animated property is `cornerRadius` (a plain CGFloat, so no
// Float rounding) animated from 0 to 10 over 1 s with a linear curve, so the value is 10 × the
// fraction; the layer's model value is the sentinel 99 so "no effect" is easy to see.

private let model: CGFloat = 99

/// A root layer (no superlayer: setting properties never animates implicitly) with the sentinel model value.
private func makeLayer() -> CALayer {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.cornerRadius = model
    return layer
}

/// `cornerRadius` from `from` to `to` over `duration`, linear (timingFunction nil).
private func ramp(from: CGFloat = 0, to: CGFloat = 10, duration: CFTimeInterval = 1) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: "cornerRadius")
    a.fromValue = from
    a.toValue = to
    a.duration = duration
    return a
}

private func value(_ layer: CALayer, at t: CFTimeInterval) -> CGFloat {
    layer.presentation(at: t)!.cornerRadius
}

/// A scene on a manual clock reading `now`.
private func scene(now: CFTimeInterval = 0) -> (SceneContext, ManualClock) {
    let clock = ManualClock(now: now)
    return (SceneContext(clock: clock), clock)
}

@Suite("Media timing")
struct MediaTimingTests {
    // MARK: Fill modes

    /// Adds `ramp()` with beginTime 1 (active for media time 1 ≤ T < 2) and the given fill settings.
    private func filled(_ mode: CAMediaTimingFillMode, removedOnCompletion: Bool) -> CALayer {
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.beginTime = 1
            a.fillMode = mode
            a.isRemovedOnCompletion = removedOnCompletion
            layer.add(a, forKey: "a")
        }
        return layer
    }

    @Test func fillRemovedHasNoEffectOutsideTheActiveDuration() {
        // §2 Fill: before/after only apply with backwards/forwards. Active: 0 ≤ e < A (A = 1).
        for removed in [true, false] {
            let layer = filled(.removed, removedOnCompletion: removed)
            #expect(value(layer, at: 0.5) == model)
            #expect(close(value(layer, at: 1), 0))        // e = 0: the start of the active duration
            #expect(close(value(layer, at: 1.5), 5))      // e = 0.5 → 10 · 0.5
            #expect(value(layer, at: 2) == model)         // e = A: after (half-open active interval)
            #expect(value(layer, at: 2.5) == model)
        }
    }

    @Test func fillForwardsHoldsTheEndOnlyWhileAttached() {
        // §2 Fill: "After, it applies only with fillMode forwards or both and while it is still
        // attached: an animation with removedOnCompletion == true ... never fills forwards."
        let kept = filled(.forwards, removedOnCompletion: false)
        #expect(value(kept, at: 0.5) == model)            // forwards does not fill backwards
        #expect(close(value(kept, at: 1.5), 5))
        #expect(close(value(kept, at: 2), 10))            // a = A: the end of the last cycle (§2 iteration rule)
        #expect(close(value(kept, at: 100), 10))

        let removed = filled(.forwards, removedOnCompletion: true)
        #expect(close(value(removed, at: 1.5), 5))
        #expect(value(removed, at: 2.5) == model)
    }

    @Test func fillBackwardsShowsTheStartBeforeBeginTime() {
        // §2 Fill: before, backwards applies at a = 0 → fraction 0 → fromValue.
        for removed in [true, false] {
            let layer = filled(.backwards, removedOnCompletion: removed)
            #expect(close(value(layer, at: 0), 0))
            #expect(close(value(layer, at: 0.99), 0))
            #expect(close(value(layer, at: 1.25), 2.5))
            #expect(value(layer, at: 2.5) == model)       // backwards never fills forwards
        }
    }

    @Test func fillBothCombinesBackwardsAndForwards() {
        let kept = filled(.both, removedOnCompletion: false)
        #expect(close(value(kept, at: 0.5), 0))
        #expect(close(value(kept, at: 1.75), 7.5))
        #expect(close(value(kept, at: 3), 10))

        // removedOnCompletion true: still fills backwards, but is gone after the end (§2 Fill).
        let removed = filled(.both, removedOnCompletion: true)
        #expect(close(value(removed, at: 0.5), 0))
        #expect(value(removed, at: 3) == model)
    }

    // MARK: Cycles and repeats

    @Test func autoreverseCycleIsForwardThenBackward() {
        // §2: C = 2d with autoreverses; simple time t = c ≤ d ? c : 2d − c. Duration 1.
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.autoreverses = true
            a.fillMode = .forwards
            a.isRemovedOnCompletion = false
            layer.add(a, forKey: "a")
        }
        #expect(close(value(layer, at: 0.25), 2.5))
        #expect(close(value(layer, at: 1), 10))           // c = d: the turning point
        #expect(close(value(layer, at: 1.5), 5))          // c = 1.5 → t = 0.5: half-way back
        #expect(close(value(layer, at: 1.75), 2.5))
        // The end (l = A = 2): i = 0, c = C = 2 → t = 2d − c = 0, back at fromValue.
        #expect(close(value(layer, at: 2), 0))
        #expect(close(value(layer, at: 5), 0))
    }

    @Test func autoreverseWithRepeatCountRepeatsWholeCycles() {
        // §2: A = repeatCount · C = 2 · 2 = 4; at T = 2.5, l = 2.5 → i = 1, c = 0.5 → 5.
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.autoreverses = true
            a.repeatCount = 2
            layer.add(a, forKey: "a")
        }
        #expect(close(value(layer, at: 2.5), 5))
        #expect(close(value(layer, at: 3.5), 5))          // c = 1.5 → t = 0.5 on the way back
        #expect(value(layer, at: 4) == model)
    }

    @Test func fractionalRepeatCountEndsMidCycle() {
        // §2: A = 1.5 · 1 = 1.5. "A fractional repeat count ends mid-cycle."
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.repeatCount = 1.5
            a.fillMode = .forwards
            a.isRemovedOnCompletion = false
            layer.add(a, forKey: "a")
        }
        #expect(close(value(layer, at: 0.5), 5))
        #expect(close(value(layer, at: 1.25), 2.5))       // second iteration, c = 0.25
        // At the end l = A = 1.5 → i = 1, c = 0.5 (c ≠ 0, so no end-of-cycle adjustment) → 5.
        #expect(close(value(layer, at: 1.5), 5))
        #expect(close(value(layer, at: 10), 5))           // forwards fill holds the half-way value
    }

    @Test func fractionalRepeatCountWithoutFillEnds() {
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.repeatCount = 1.5
            layer.add(a, forKey: "a")
        }
        #expect(close(value(layer, at: 1.49), 4.9, 1e-9))
        #expect(value(layer, at: 1.5) == model)
    }

    @Test func infiniteRepeatNeverEnds() {
        // §2: repeatCount inf → A infinite; l = max(0, a + o); i = ⌊l / C⌋.
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.repeatCount = .infinity
            layer.add(a, forKey: "a")
        }
        #expect(close(value(layer, at: 0.25), 2.5))
        #expect(close(value(layer, at: 100.25), 2.5))
        #expect(close(value(layer, at: 1000.75), 7.5))
        #expect(close(value(layer, at: 7), 0))             // the start of cycle 8
    }

    @Test func repeatDurationBoundsTheActiveDuration() {
        // §2: A = repeatDuration (2.5) when > 0, whatever repeatCount says.
        let (context, _) = scene()
        let layer = makeLayer()
        let held = makeLayer()
        context.run {
            let a = ramp()
            a.repeatDuration = 2.5
            a.repeatCount = 10 // ignored: repeatDuration wins
            layer.add(a, forKey: "a")
            let b = a.copy()
            b.fillMode = .forwards
            b.isRemovedOnCompletion = false
            held.add(b, forKey: "b")
        }
        #expect(close(value(layer, at: 2.25), 2.5))       // third cycle, c = 0.25
        #expect(close(value(layer, at: 2.49), 4.9, 1e-9))
        #expect(value(layer, at: 2.5) == model)
        #expect(close(value(held, at: 2.5), 5))           // l = A = 2.5 → i = 2, c = 0.5
        #expect(close(value(held, at: 9), 5))
    }

    // MARK: Offsets and speeds

    @Test func timeOffsetWrapsAroundTheActiveDuration() {
        // §2 Offset: "an animation of duration 3 with timeOffset 1 plays 1→3, then 0→1."
        // Animating 0 → 3 over 3 s makes the value equal the simple time in seconds.
        let (context, _) = scene()
        let layer = makeLayer()
        let held = makeLayer()
        context.run {
            let a = ramp(from: 0, to: 3, duration: 3)
            a.timeOffset = 1
            layer.add(a, forKey: "a")
            let b = a.copy()
            b.fillMode = .forwards
            b.isRemovedOnCompletion = false
            held.add(b, forKey: "b")
        }
        #expect(close(value(layer, at: 0), 1))            // fraction 1/3
        #expect(close(value(layer, at: 1.5), 2.5))
        #expect(close(value(layer, at: 2), 0))            // l = mod(3, 3) = 0
        #expect(close(value(layer, at: 2.5), 0.5))        // fraction 0.5/3
        #expect(value(layer, at: 3) == model)
        // At the end with mod(o, A) = 1 ≠ 0: l = mod(A + o, A) = 1 (§2 Offset) → 1.
        #expect(close(value(held, at: 3), 1))
    }

    @Test func timeOffsetWithInfiniteRepeat() {
        // §2 Offset: A infinite → l = max(0, a + o); duration 1, o = 0.25: T = 0.5 → l = 0.75.
        let (context, _) = scene()
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.timeOffset = 0.25
            a.repeatCount = .infinity
            layer.add(a, forKey: "a")
        }
        #expect(close(value(layer, at: 0.5), 7.5))
        #expect(close(value(layer, at: 0.75), 0))
        #expect(close(value(layer, at: 1.0), 2.5))
    }

    @Test func animationSpeedScalesElapsedTime() {
        // §2: e = (p − b) · s with s = 2; the 1 s animation is over after 0.5 s of parent time.
        let (context, _) = scene()
        let layer = makeLayer()
        let late = makeLayer()
        context.run {
            let a = ramp()
            a.speed = 2
            a.fillMode = .forwards
            a.isRemovedOnCompletion = false
            layer.add(a, forKey: "a")
            let b = ramp()
            b.speed = 2
            b.beginTime = 1   // in the layer's time, not scaled by the animation's own speed
            late.add(b, forKey: "b")
        }
        #expect(close(value(layer, at: 0.25), 5))
        #expect(close(value(layer, at: 0.4), 8))
        #expect(close(value(layer, at: 0.5), 10))
        #expect(close(value(layer, at: 3), 10))
        #expect(value(late, at: 0.9) == model)
        #expect(close(value(late, at: 1.25), 5))
        #expect(value(late, at: 1.5) == model)
    }

    @Test func layerTimeNestsSpeedBeginTimeAndTimeOffset() {
        // §1: local(root) = (T − 0)·2 + 0; local(child) = (local(root) − 1)·0.5 + 3 = T + 2.5.
        // The animation has an explicit beginTime 4 in the child's time: active for 4 ≤ T + 2.5 < 5.
        let (context, _) = scene()
        let root = makeLayer()
        root.speed = 2
        let child = makeLayer()
        child.beginTime = 1
        child.speed = 0.5
        child.timeOffset = 3
        root.addSublayer(child)
        context.run {
            let a = ramp()
            a.beginTime = 4
            child.add(a, forKey: "a")
        }
        #expect(close(child.localTime(atMedia: 2), 4.5))
        #expect(value(child, at: 1.4) == model)
        #expect(close(value(child, at: 1.5), 0))
        #expect(close(value(child, at: 2), 5))
        #expect(close(value(child, at: 2.25), 7.5))
        #expect(value(child, at: 2.5) == model)
    }

    @Test func layerSpeedScalesAnAnimationAddedNow() {
        // §1 + §2 "beginTime 0 means now": parent speed 2 → child local = 2T; added at T = 0.
        let (context, _) = scene()
        let root = makeLayer()
        root.speed = 2
        let child = makeLayer()
        root.addSublayer(child)
        context.run { child.add(ramp(), forKey: "a") }
        #expect(close(value(child, at: 0.25), 5))
        #expect(value(child, at: 0.5) == model)
    }

    @Test func pausedLayerFreezesItsAnimations() {
        // Apple's Technical Q&A QA1673 pause/resume recipe: timeOffset = convertTime(now, from: nil);
        // speed = 0. §1: local = (T − beginTime)·0 + timeOffset = timeOffset for every T.
        let (context, clock) = scene()
        let layer = makeLayer()
        context.run { layer.add(ramp(), forKey: "a") }

        clock.now = 0.3
        context.run {
            let paused = layer.convertTime(CACurrentMediaTime(), from: nil)
            #expect(close(paused, 0.3))
            layer.speed = 0
            layer.timeOffset = paused
        }
        #expect(close(value(layer, at: 0.3), 3))
        #expect(close(value(layer, at: 0.9), 3))
        #expect(close(value(layer, at: 50), 3))

        // Resume at T = 2 (QA1673): speed 1, timeOffset 0, beginTime = (local now) − pausedTime.
        clock.now = 2
        context.run {
            let paused = layer.timeOffset
            layer.speed = 1
            layer.timeOffset = 0
            layer.beginTime = 0
            layer.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) - paused
        }
        #expect(close(layer.beginTime, 1.7))
        #expect(close(value(layer, at: 2), 3))            // local = 2 − 1.7 = 0.3
        #expect(close(value(layer, at: 2.5), 8))          // local = 0.8
        #expect(value(layer, at: 2.7) == model)           // local = 1: over
    }

    // MARK: convertTime

    @Test func convertTimeAcrossNestedLayersWithSpeeds() {
        // §1: root local = 2T; child local = (2T − 1)·0.5 + 3 = T + 2.5; sibling local = 2T·3 = 6T.
        let root = CALayer()
        root.speed = 2
        let child = CALayer()
        child.beginTime = 1
        child.speed = 0.5
        child.timeOffset = 3
        let sibling = CALayer()
        sibling.speed = 3
        root.addSublayer(child)
        root.addSublayer(sibling)

        #expect(close(child.convertTime(2, from: nil), 4.5))
        #expect(close(child.convertTime(4.5, to: nil), 2))          // inverse: (t − o)/s + b, twice
        #expect(close(root.convertTime(4.5, from: child), 4))       // child 4.5 → T 2 → root 4
        #expect(close(child.convertTime(4, from: root), 4.5))
        #expect(close(child.convertTime(4.5, to: sibling), 12))     // T 2 → sibling 6·2
        #expect(close(sibling.convertTime(12, to: child), 4.5))
        for t in [-3.0, 0, 0.7, 10] {                              // round trips
            #expect(close(child.convertTime(child.convertTime(t, to: sibling), from: sibling), t))
        }
    }

    @Test func convertTimeThroughAPausedLayerReturnsItsBeginTime() {
        // §1 (choice): through a layer with speed 0 the inverse is undefined; the conversion
        // returns that layer's beginTime.
        let layer = CALayer()
        layer.speed = 0
        layer.beginTime = 5
        layer.timeOffset = 2
        #expect(close(layer.convertTime(7, to: nil), 5))
        #expect(close(layer.convertTime(123, from: nil), 2))        // forward map: local = offset
    }

    @Test
    func convertTimeThroughAPausedAncestorReturnsThePausedLayersBeginTime() {
        // §1 (choice): "through a layer with speed 0 the inverse is undefined and the conversion
        // returns that layer's beginTime" — the paused layer's, not the converting layer's.
        // paused: root, speed 0, beginTime 3; child: beginTime 5, speed 1.
        let paused = CALayer()
        paused.speed = 0
        paused.beginTime = 3
        let child = CALayer()
        child.beginTime = 5
        paused.addSublayer(child)
        #expect(close(child.convertTime(7, to: nil), 3))
        // And the same through `from:` on another tree's layer.
        let other = CALayer()
        #expect(close(other.convertTime(7, from: child), 3))
    }

    // MARK: Resolution when added

    @Test func beginTimeZeroMeansNow() {
        // §2: beginTime 0 → local(L) when added; the clock reads 10.
        let (context, _) = scene(now: 10)
        let layer = makeLayer()
        let backwards = makeLayer()
        let original = ramp()
        context.run {
            layer.add(original, forKey: "a")
            let b = ramp()
            b.fillMode = .backwards
            backwards.add(b, forKey: "b")
        }
        #expect(value(layer, at: 9.5) == model)
        #expect(close(value(layer, at: 10), 0))
        #expect(close(value(layer, at: 10.5), 5))
        #expect(value(layer, at: 11) == model)
        #expect(close(value(backwards, at: 9.5), 0))
        // The caller's animation object is not changed (a copy is attached, as in Core Animation).
        #expect(original.beginTime == 0)
        #expect(layer.animation(forKey: "a") !== original)
    }

    @Test func beginTimeZeroResolvesInTheLayersOwnTime() {
        // §2: "gets beginTime = local(L)": with parent speed 2 at T = 10, local(child) = 20.
        let (context, _) = scene(now: 10)
        let root = makeLayer()
        root.speed = 2
        let child = makeLayer()
        root.addSublayer(child)
        context.run { child.add(ramp(), forKey: "a") }
        #expect(value(child, at: 9.9) == model)
        #expect(close(value(child, at: 10.25), 5))        // local 20.5
        #expect(value(child, at: 10.5) == model)
    }

    @Test func presentationWithoutATimeUsesTheScenesNow() {
        // presentation() = presentation(at: CACurrentMediaTime()), the current scene's clock.
        let (context, clock) = scene(now: 10)
        let layer = makeLayer()
        context.run { layer.add(ramp(), forKey: "a") }
        clock.now = 10.25
        context.run {
            #expect(CACurrentMediaTime() == 10.25)
            #expect(close(layer.presentation()!.cornerRadius, 2.5))
        }
    }

    @Test func explicitBeginTimeUsesCACurrentMediaTime() {
        // The iOS idiom: beginTime = CACurrentMediaTime() + 1 (a root layer's time is media time).
        let (context, _) = scene(now: 10)
        let layer = makeLayer()
        context.run {
            let a = ramp()
            a.beginTime = CACurrentMediaTime() + 1
            layer.add(a, forKey: "a")
        }
        #expect(value(layer, at: 10.5) == model)
        #expect(close(value(layer, at: 11.5), 5))
    }

    @Test func durationZeroBecomesADefaultQuarterSecond() {
        // §2 Duration: 0 → the transaction's animationDuration, 0.25 s by default
        // (Apple CAMediaTiming.duration: "Defaults to 0" and animations then use 0.25 s).
        let (context, _) = scene()
        let layer = makeLayer()
        context.run { layer.add(ramp(duration: 0), forKey: "a") }
        #expect(close(value(layer, at: 0.125), 5))
        #expect(close(value(layer, at: 0.2), 8))
        #expect(value(layer, at: 0.25) == model)
    }

    @Test func transactionAnimationDurationAppliesToDurationZeroAnimations() {
        // §2 Duration + §8: setAnimationDuration changes what duration-0 animations get inside
        // the transaction; explicit durations are untouched; after commit the default returns.
        let (context, _) = scene()
        let zero = makeLayer()
        let explicit = makeLayer()
        let after = makeLayer()
        context.run {
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            #expect(CATransaction.animationDuration() == 2)
            zero.add(ramp(duration: 0), forKey: "a")
            explicit.add(ramp(duration: 1), forKey: "a")
            CATransaction.commit()
            #expect(CATransaction.animationDuration() == 0.25)
            after.add(ramp(duration: 0), forKey: "a")
        }
        #expect(close(value(zero, at: 1), 5))
        #expect(close(value(zero, at: 1.5), 7.5))
        #expect(close(value(explicit, at: 0.5), 5))
        #expect(close(value(after, at: 0.125), 5))
    }

    @Test func nestedTransactionsInheritAndRestoreTheDuration() {
        // §8: begin/commit nest and settings apply to the innermost transaction.
        let (context, _) = scene()
        let inner = makeLayer()
        let outer = makeLayer()
        context.run {
            CATransaction.begin()
            CATransaction.setAnimationDuration(4)
            CATransaction.begin()
            #expect(CATransaction.animationDuration() == 4)   // inherited
            CATransaction.setAnimationDuration(1)
            inner.add(ramp(duration: 0), forKey: "a")
            CATransaction.commit()
            outer.add(ramp(duration: 0), forKey: "a")
            CATransaction.commit()
        }
        #expect(close(value(inner, at: 0.5), 5))
        #expect(close(value(outer, at: 2), 5))
    }
}

import Foundation
import LayercastEngine

extension UIView {
    /// Animates the changes `animations` makes to views' frame, bounds, center, transform, alpha
    /// and backgroundColor over `duration` seconds after `delay`, as UIKit does (docs/engine-model.md
    /// §12.1), then calls `completion` on the scene's clock with whether every animation ran to its end.
    /// A duration of 0 makes the changes without animating; a negative or non-finite duration or
    /// delay is reported (`UIKitErrors`) and treated as 0.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval,
                              options: AnimationOptions = [], animations: @escaping () -> Void,
                              completion: ((Bool) -> Void)? = nil) {
        let (duration, delay) = checked(duration, delay, "UIView.animate(withDuration:…)")
        let inherited = inheritedTiming(duration: duration, options: options)
        perform(UIViewAnimationBlock(duration: inherited.duration, delay: delay, options: options, timing: .curve(inherited.curve),
                                     kind: .basic, completion: UIViewAnimationCompletion(completion)), animations)
    }

    /// `animate(withDuration:delay:options:animations:completion:)` with no delay or options.
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// `animate(withDuration:delay:options:animations:completion:)` with no delay or options.
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void,
                              completion: ((Bool) -> Void)?) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// The spring variant: the same animations as `CASpringAnimation`s whose mass, stiffness and
    /// damping make a spring of damping ratio `dampingRatio` settle in `duration`, starting at
    /// `velocity` whole distances per second (`UISpringMapping`, docs/engine-model.md §12.2). The
    /// curve options are ignored, as in UIKit. A ratio that is not > 0 is reported and taken as 1.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval,
                              usingSpringWithDamping dampingRatio: CGFloat, initialSpringVelocity velocity: CGFloat,
                              options: AnimationOptions = [], animations: @escaping () -> Void,
                              completion: ((Bool) -> Void)? = nil) {
        let (duration, delay) = checked(duration, delay, "UIView.animate(withDuration:delay:usingSpringWithDamping:…)")
        var ratio = dampingRatio, velocity = velocity
        if !(ratio > 0) {
            UIKitErrors.shared.record("UIView.animate(…usingSpringWithDamping:…)", "damping ratio \(dampingRatio) is not > 0; animated with 1")
            ratio = 1
        }
        if !velocity.isFinite {
            UIKitErrors.shared.record("UIView.animate(…initialSpringVelocity:…)", "velocity \(velocity) is not finite; animated with 0")
            velocity = 0
        }
        let timing: UIViewAnimationBlock.Timing = UISpringMapping.spring(duration: duration, dampingRatio: ratio, initialVelocity: velocity)
            .map { .spring($0) } ?? .curve(options.timingFunction)
        perform(UIViewAnimationBlock(duration: duration, delay: delay, options: options, timing: timing,
                                     kind: .basic, completion: UIViewAnimationCompletion(completion)), animations)
    }

    /// Makes the changes in `actionsWithoutAnimation` without animating them, inside a block too.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        UIViewAnimationBlock.run(nil, actionsWithoutAnimation)
    }

    /// Whether changes made now are animated (inside an animation block).
    public class var areAnimationsEnabled: Bool { UIViewAnimationBlock.current != nil }

    /// The keyframe variant: changes made inside each `addKeyframe` animate over that keyframe's
    /// part of `duration` (changes outside any keyframe over all of it); each property gets one
    /// `CAKeyframeAnimation` with the option's calculation mode (docs/engine-model.md §12.3).
    public class func animateKeyframes(withDuration duration: TimeInterval, delay: TimeInterval,
                                       options: KeyframeAnimationOptions = [], animations: @escaping () -> Void,
                                       completion: ((Bool) -> Void)? = nil) {
        let (duration, delay) = checked(duration, delay, "UIView.animateKeyframes(withDuration:…)")
        let tracks = KeyframeTracks()
        let block = UIViewAnimationBlock(duration: duration, delay: delay, options: options.shared,
                                         timing: .curve(CAMediaTimingFunction(name: .linear)),
                                         kind: .keyframes(tracks),
                                         completion: UIViewAnimationCompletion(completion))
        guard duration > 0 else { return performUnanimated(animations, completion: block.completion, delay: delay) }
        UIViewAnimationBlock.run(block, animations)
        for (layer, animation) in tracks.animations() {
            animation.calculationMode = options.calculationMode
            block.add(block.configured(animation), to: layer)
        }
        block.completion.seal(delay: delay)
    }

    /// One keyframe of the enclosing `animateKeyframes` block: the changes `animations` makes run
    /// from `frameStartTime` for `frameDuration`, both fractions of the block's duration. Outside
    /// such a block the changes are made at once and the call is reported.
    public class func addKeyframe(withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
                                  animations: () -> Void) {
        guard case .keyframes(let tracks)? = UIViewAnimationBlock.current?.kind else {
            UIKitErrors.shared.record("UIView.addKeyframe", "called outside UIView.animateKeyframes; the changes were made without animation")
            return performWithoutAnimation(animations)
        }
        guard frameStartTime.isFinite, frameDuration.isFinite, frameStartTime >= 0, frameDuration >= 0, frameStartTime + frameDuration <= 1 + 1e-9 else {
            UIKitErrors.shared.record("UIView.addKeyframe", "start \(frameStartTime) and duration \(frameDuration) must lie in 0…1; the keyframe spans the whole block")
            return animations()
        }
        let outer = tracks.window
        tracks.window = (frameStartTime, frameDuration)
        animations()
        tracks.window = outer
    }

    // MARK: Running a block

    /// Runs `animations` in `block`, then seals its completion.
    static func perform(_ block: UIViewAnimationBlock, _ animations: () -> Void) {
        guard block.duration > 0 else { return performUnanimated(animations, completion: block.completion, delay: block.delay) }
        UIViewAnimationBlock.run(block, animations)
        block.completion.seal(delay: block.delay)
    }

    /// Makes the changes without animation and calls the completion after `delay`, as UIKit does for duration 0.
    static func performUnanimated(_ animations: () -> Void, completion: UIViewAnimationCompletion, delay: CFTimeInterval) {
        UIViewAnimationBlock.run(nil, animations)
        completion.seal(delay: delay)
    }

    /// The duration and delay, a negative or non-finite one reported and taken as 0.
    static func checked(_ duration: TimeInterval, _ delay: TimeInterval, _ call: String) -> (TimeInterval, TimeInterval) {
        var result = (duration, delay)
        if !duration.isFinite || duration < 0 {
            UIKitErrors.shared.record(call, "duration \(duration) is not a finite number ≥ 0; the changes were made without animation")
            result.0 = 0
        }
        if !delay.isFinite || delay < 0 {
            UIKitErrors.shared.record(call, "delay \(delay) is not a finite number ≥ 0; taken as 0")
            result.1 = 0
        }
        return result
    }

    /// A nested block takes the enclosing block's duration and curve unless its options override them.
    private static func inheritedTiming(duration: TimeInterval, options: AnimationOptions) -> (duration: TimeInterval, curve: CAMediaTimingFunction) {
        guard let outer = UIViewAnimationBlock.current, case .basic = outer.kind else { return (duration, options.timingFunction) }
        let d = options.contains(.overrideInheritedDuration) ? duration : outer.duration
        var curve = options.timingFunction
        if !options.contains(.overrideInheritedCurve), case .curve(let outerCurve) = outer.timing { curve = outerCurve }
        return (d, curve)
    }
}

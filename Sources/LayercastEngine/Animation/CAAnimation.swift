import Foundation

/// Receives an animation's start and stop; `finished` is true only when it ran to its end.
public protocol CAAnimationDelegate: AnyObject {
    /// Called once when the animation's active duration begins.
    func animationDidStart(_ anim: CAAnimation)
    /// Called once when the animation ends or is removed; `flag` is false when it was removed early.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Does nothing; implement it to hear of the start.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Does nothing; implement it to hear of the stop.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract animation: media timing, a timing function, a delegate. Adding an animation to a
/// layer attaches a copy, as Core Animation does; the copy is what `animation(forKey:)` returns.
open class CAAnimation: CAMediaTiming {
    /// When the animation starts, in its layer's time; 0 means when it is added (docs/engine-model.md §2).
    public var beginTime: CFTimeInterval = 0
    /// Seconds of one simple cycle; 0 takes the transaction's duration (0.25 s by default) or the group's.
    public var duration: CFTimeInterval = 0
    /// How fast its time runs against its layer's (2 is twice as fast; 0 stops it).
    public var speed: Float = 1
    /// Seconds added to its local time, wrapping within the active duration (starts mid-way through).
    public var timeOffset: CFTimeInterval = 0
    /// How many cycles it plays, may be fractional or `.infinity`; 0 plays one.
    public var repeatCount: Float = 0
    /// Seconds it plays for, repeating as needed; overrides `repeatCount` when > 0.
    public var repeatDuration: CFTimeInterval = 0
    /// Whether each cycle plays forwards then backwards (a cycle then lasts twice `duration`).
    public var autoreverses = false
    /// Whether its value holds before its start or after its end; `.removed` (neither) by default.
    public var fillMode: CAMediaTimingFillMode = .removed
    /// Maps the fraction of each cycle; nil is linear.
    public var timingFunction: CAMediaTimingFunction?
    /// Retained, as in Core Animation.
    public var delegate: CAAnimationDelegate?
    /// Whether the layer drops it when it finishes (true by default, so it cannot fill forwards).
    public var isRemovedOnCompletion = true

    /// An animation with the default timing: begins when added, one cycle, speed 1.
    public init() {}

    /// A copy with the same configuration (not the attachment state).
    required public init(copying other: CAAnimation) {
        beginTime = other.beginTime
        duration = other.duration
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        delegate = other.delegate
        isRemovedOnCompletion = other.isRemovedOnCompletion
    }

    /// A copy of this animation, as `NSCopying.copy()`.
    public func copy() -> Self { Self(copying: self) }

    /// Default duration Core Animation uses when `duration` is 0 outside a transaction.
    public static let defaultDuration: CFTimeInterval = 0.25

    // MARK: Attachment (set on the attached copy only)

    /// Timing with beginTime and duration resolved when attached.
    var resolved: ResolvedTiming?
    var started = false
    var stopped = false
    weak var attachedLayer: CALayer?
    /// The media times of this copy's start and of its end (nil: it never ends), as `SceneContext`
    /// last computed them through its layer's time; nil until computed, and cleared by the layer
    /// when its time changes or it goes away.
    var dueTimes: (start: CFTimeInterval, end: CFTimeInterval?)?
    var completionGroups: [TransactionCompletion] = []

    /// Resolves timing for a copy being attached: `duration` 0 becomes `inheritedDuration`,
    /// `beginTime` 0 becomes `now` unless this is a group child.
    func resolve(now: CFTimeInterval, inheritedDuration: CFTimeInterval, isGroupChild: Bool) {
        resolved = ResolvedTiming(
            beginTime: beginTime == 0 && !isGroupChild ? now : beginTime,
            duration: duration > 0 ? duration : inheritedDuration,
            speed: Double(speed),
            timeOffset: timeOffset,
            repeatCount: Double(repeatCount),
            repeatDuration: repeatDuration,
            autoreverses: autoreverses,
            fillsBackwards: fillMode.fillsBackwards,
            holdsAfterEnd: fillMode.fillsForwards && (isGroupChild || !isRemovedOnCompletion)
        )
    }

    /// Applies this animation's values at `parentTime` to `props` (docs/engine-model.md §5).
    func apply(to props: inout LayerProperties, parentTime: CFTimeInterval) {}

    /// The emitter key paths this animation drives (a group's: its children's).
    var emitterKeyPaths: [EmitterKeyPath] { [] }

    /// Applies this animation's values at `parentTime` to the emitter values its key paths address when
    /// they are those of the cell named `cellNames` (empty: the layer's own) (docs/engine-model.md §9.7).
    func applyEmitter<V: EmitterAnimatable>(to values: inout V, cellNames: [String], parentTime: CFTimeInterval) {}

    /// Checks the configuration; returns "field: problem" for the first thing wrong, or nil.
    public func validationError() -> String? {
        if !duration.isFinite || duration < 0 { return "duration: must be a finite number ≥ 0" }
        if !beginTime.isFinite { return "beginTime: must be finite" }
        if !speed.isFinite { return "speed: must be finite" }
        if !timeOffset.isFinite { return "timeOffset: must be finite" }
        if repeatCount.isNaN || repeatCount < 0 { return "repeatCount: must be ≥ 0 or inf" }
        if !repeatDuration.isFinite || repeatDuration < 0 { return "repeatDuration: must be a finite number ≥ 0" }
        return nil
    }

    /// `validationError()`, then whether `layer` has every property the animation drives
    /// (docs/engine-model.md §11); nil when `add(_:forKey:)` can run it on that layer.
    public func validationError(for layer: CALayer) -> String? {
        problem(for: layer)?.message
    }

    /// The first problem on a layer with `props`, with the key path it concerns ("" for none).
    func problem(for layer: CALayer) -> (keyPath: String, message: String)? {
        validationError().map { ("", $0) }
    }

    /// The fraction of the current cycle after the timing function.
    func fraction(of sample: TimingSample, duration: CFTimeInterval) -> CGFloat {
        let f = CGFloat(sample.simpleTime / duration)
        return timingFunction.map { $0.evaluate(f) } ?? f
    }
}

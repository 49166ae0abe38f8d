import Foundation

/// An animation of one layer property named by a key path (`position`, `transform.rotation.y`…).
open class CAPropertyAnimation: CAAnimation {
    public var keyPath: String?
    /// The value combines with the property's current value instead of replacing it.
    public var isAdditive = false
    /// Each repeat builds on the end value of the previous one.
    public var isCumulative = false

    public override init() { super.init() }

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    required public init(copying other: CAAnimation) {
        super.init(copying: other)
        if let o = other as? CAPropertyAnimation {
            keyPath = o.keyPath
            isAdditive = o.isAdditive
            isCumulative = o.isCumulative
        }
    }

    /// The parsed key path, or nil when the engine cannot animate it.
    public var parsedKeyPath: AnimationKeyPath? { keyPath.flatMap(AnimationKeyPath.init) }

    public override func validationError() -> String? {
        if let e = super.validationError() { return e }
        guard let keyPath else { return "keyPath: missing" }
        guard AnimationKeyPath(keyPath) != nil else { return "keyPath: '\(keyPath)' is not an animatable key path" }
        return nil
    }

    override func problem(for props: LayerProperties) -> (keyPath: String, message: String)? {
        if let e = validationError() { return (keyPath ?? "", e) }
        if let keyPath, let property = parsedKeyPath?.property, !props.has(property) {
            return (keyPath, "keyPath: '\(keyPath)' is a \(property.layerClass) property, not one of this layer")
        }
        return nil
    }

    /// The key path parsed when attached.
    var resolvedKeyPath: AnimationKeyPath?

    override func resolve(now: CFTimeInterval, inheritedDuration: CFTimeInterval, isGroupChild: Bool) {
        super.resolve(now: now, inheritedDuration: inheritedDuration, isGroupChild: isGroupChild)
        resolvedKeyPath = parsedKeyPath
        if let kind = resolvedKeyPath?.valueKind { resolveValues(as: kind) }
    }

    /// Converts the `Any` values to typed values once, when attached.
    func resolveValues(as kind: AnimatableValueKind) {}

    /// The value at a sample, given the property part's current value; nil for no effect.
    func value(at sample: TimingSample, timing: ResolvedTiming, current: AnimatableValue, keyPath: AnimationKeyPath) -> AnimatableValue? { nil }

    /// The value at the end of a forward cycle, used for cumulative repeats.
    func endValue(current: AnimatableValue, keyPath: AnimationKeyPath) -> AnimatableValue? { nil }

    override func apply(to props: inout LayerProperties, parentTime: CFTimeInterval) {
        guard let timing = resolved, let kp = resolvedKeyPath, let sample = timing.sample(at: parentTime) else { return }
        let isWhole = kp.component == .whole
        let whole = props[kp.property]
        let current = isWhole ? whole : kp.extract(from: whole)
        guard var v = value(at: sample, timing: timing, current: current, keyPath: kp), v.kind == current.kind else { return }
        if isCumulative, sample.iteration > 0, let end = endValue(current: current, keyPath: kp), let total = end.accumulated(sample.iteration) {
            v = v.adding(total)
        }
        if isAdditive, !kp.composesIntoTransform, v.isInterpolable {
            v = current.adding(v)
        }
        props[kp.property] = isWhole ? v : kp.compose(v, into: whole)
        applyExtras(to: &props, sample: sample, timing: timing)
    }

    /// Hook for effects beyond the key path (a path animation's rotationMode).
    func applyExtras(to props: inout LayerProperties, sample: TimingSample, timing: ResolvedTiming) {}
}

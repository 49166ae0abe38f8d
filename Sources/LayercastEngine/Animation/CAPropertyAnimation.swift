import Foundation

/// An animation of one layer property named by a key path (`position`, `transform.rotation.y`…).
open class CAPropertyAnimation: CAAnimation {
    /// The animated property's key path (`opacity`, `transform.scale.x`, `emitterCells.NAME.birthRate`).
    public var keyPath: String?
    /// The value combines with the property's current value instead of replacing it.
    public var isAdditive = false
    /// Each repeat builds on the end value of the previous one.
    public var isCumulative = false

    /// An animation with no key path yet.
    public override init() { super.init() }

    /// An animation of the property at `path`.
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

    /// The parsed key path, or nil when the engine cannot animate it (or it is an emitter key path).
    public var parsedKeyPath: AnimationKeyPath? { keyPath.flatMap(AnimationKeyPath.init) }

    /// The parsed emitter key path (`emitterCells.NAME.birthRate`, `emitterPosition`…), or nil.
    public var parsedEmitterKeyPath: EmitterKeyPath? { keyPath.flatMap(EmitterKeyPath.init) }

    /// The kind of value the key path takes, nil when it is not animatable.
    var keyPathValueKind: AnimatableValueKind? { parsedKeyPath?.valueKind ?? parsedEmitterKeyPath?.valueKind }

    public override func validationError() -> String? {
        if let e = super.validationError() { return e }
        guard let keyPath else { return "keyPath: missing" }
        guard keyPathValueKind != nil else { return "keyPath: '\(keyPath)' is not an animatable key path" }
        return nil
    }

    override func problem(for layer: CALayer) -> (keyPath: String, message: String)? {
        if let e = validationError() { return (keyPath ?? "", e) }
        guard let keyPath else { return nil }
        if let property = parsedKeyPath?.property, !layer.properties.has(property) {
            return (keyPath, "keyPath: '\(keyPath)' is a \(property.layerClass) property, not one of this layer")
        }
        if let emitterPath = parsedEmitterKeyPath {
            guard let emitter = layer as? CAEmitterLayer else {
                return (keyPath, "keyPath: '\(keyPath)' is a CAEmitterLayer property, not one of this layer")
            }
            if !emitter.hasCell(named: emitterPath.cellNames) {
                return (keyPath, "keyPath: '\(keyPath)' names no cell of this emitter layer's emitterCells")
            }
        }
        return nil
    }

    override var emitterKeyPaths: [EmitterKeyPath] { parsedEmitterKeyPath.map { [$0] } ?? [] }

    /// The key path parsed when attached.
    var resolvedKeyPath: AnimationKeyPath?
    /// The emitter key path parsed when attached.
    var resolvedEmitterKeyPath: EmitterKeyPath?

    override func resolve(now: CFTimeInterval, inheritedDuration: CFTimeInterval, isGroupChild: Bool) {
        super.resolve(now: now, inheritedDuration: inheritedDuration, isGroupChild: isGroupChild)
        resolvedKeyPath = parsedKeyPath
        resolvedEmitterKeyPath = parsedEmitterKeyPath
        if let kind = resolvedKeyPath?.valueKind ?? resolvedEmitterKeyPath?.valueKind { resolveValues(as: kind) }
    }

    /// Converts the `Any` values to typed values once, when attached.
    func resolveValues(as kind: AnimatableValueKind) {}

    /// The value at a sample, given the property part's current value; nil for no effect.
    func value(at sample: TimingSample, timing: ResolvedTiming, current: AnimatableValue) -> AnimatableValue? { nil }

    /// The value at the end of a forward cycle, used for cumulative repeats.
    func endValue(current: AnimatableValue) -> AnimatableValue? { nil }

    /// The animated value at a sample, cumulative and additive applied (§3.3); nil for no effect.
    private func animatedValue(at sample: TimingSample, timing: ResolvedTiming, current: AnimatableValue, addsToCurrent: Bool) -> AnimatableValue? {
        guard var v = value(at: sample, timing: timing, current: current), v.kind == current.kind else { return nil }
        if isCumulative, sample.iteration > 0, let end = endValue(current: current), let total = end.accumulated(sample.iteration) {
            v = v.adding(total)
        }
        if isAdditive, addsToCurrent, v.isInterpolable {
            v = current.adding(v)
        }
        return v
    }

    override func apply(to props: inout LayerProperties, parentTime: CFTimeInterval) {
        guard let timing = resolved, let kp = resolvedKeyPath, let sample = timing.sample(at: parentTime) else { return }
        let isWhole = kp.component == .whole
        let whole = props[kp.property]
        let current = isWhole ? whole : kp.extract(from: whole)
        guard let v = animatedValue(at: sample, timing: timing, current: current, addsToCurrent: !kp.composesIntoTransform) else { return }
        props[kp.property] = isWhole ? v : kp.compose(v, into: whole)
        applyExtras(to: &props, sample: sample, timing: timing)
    }

    override func applyEmitter<V: EmitterAnimatable>(to values: inout V, cellNames: [String], parentTime: CFTimeInterval) {
        guard let timing = resolved, let kp = resolvedEmitterKeyPath, kp.cellNames == cellNames,
              let whole = values[kp.parameter], let sample = timing.sample(at: parentTime) else { return }
        let current = kp.extract(from: whole)
        guard let v = animatedValue(at: sample, timing: timing, current: current, addsToCurrent: true) else { return }
        values[kp.parameter] = kp.compose(v, into: whole)
    }

    /// Hook for effects beyond the key path (a path animation's rotationMode).
    func applyExtras(to props: inout LayerProperties, sample: TimingSample, timing: ResolvedTiming) {}
}

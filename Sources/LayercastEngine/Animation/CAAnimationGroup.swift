import Foundation

/// Runs several animations in its own time space; children are clipped to the group's duration
/// and a child with duration 0 takes the group's (docs/engine-model.md §4).
open class CAAnimationGroup: CAAnimation {
    /// The animations run together in the group's time, applied in array order; nil runs none.
    public var animations: [CAAnimation]?

    /// An empty group.
    public override init() { super.init() }

    required public init(copying other: CAAnimation) {
        super.init(copying: other)
        if let o = other as? CAAnimationGroup {
            animations = o.animations?.map { $0.copy() }
        }
    }

    public override func validationError() -> String? {
        if let e = super.validationError() { return e }
        for (i, child) in (animations ?? []).enumerated() {
            if let e = child.validationError() { return "animations[\(i)].\(e)" }
        }
        return nil
    }

    override func problem(for layer: CALayer) -> (keyPath: String, message: String)? {
        for (i, child) in (animations ?? []).enumerated() {
            if let p = child.problem(for: layer) { return (p.keyPath, "animations[\(i)].\(p.message)") }
        }
        return super.problem(for: layer)
    }

    override func resolve(now: CFTimeInterval, inheritedDuration: CFTimeInterval, isGroupChild: Bool) {
        super.resolve(now: now, inheritedDuration: inheritedDuration, isGroupChild: isGroupChild)
        let d = resolved?.duration ?? inheritedDuration
        for child in animations ?? [] {
            child.resolve(now: 0, inheritedDuration: d, isGroupChild: true)
        }
    }

    override func apply(to props: inout LayerProperties, parentTime: CFTimeInterval) {
        guard let timing = resolved, let sample = timing.sample(at: parentTime) else { return }
        let childTime = CFTimeInterval(fraction(of: sample, duration: timing.duration)) * timing.duration
        for child in animations ?? [] {
            child.apply(to: &props, parentTime: childTime)
        }
    }

    override var emitterKeyPaths: [EmitterKeyPath] { (animations ?? []).flatMap(\.emitterKeyPaths) }

    override func applyEmitter<V: EmitterAnimatable>(to values: inout V, cellNames: [String], parentTime: CFTimeInterval) {
        guard let timing = resolved, let sample = timing.sample(at: parentTime) else { return }
        let childTime = CFTimeInterval(fraction(of: sample, duration: timing.duration)) * timing.duration
        for child in animations ?? [] {
            child.applyEmitter(to: &values, cellNames: cellNames, parentTime: childTime)
        }
    }
}

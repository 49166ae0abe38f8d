import Foundation

/// Interpolates one property between from, to and by values (docs/engine-model.md §3.1).
open class CABasicAnimation: CAPropertyAnimation {
    /// The value at the start, of the key path's kind; nil takes the current value (§3.1).
    public var fromValue: Any?
    /// The value at the end, of the key path's kind; nil takes the current value (§3.1).
    public var toValue: Any?
    /// A relative change added to the start or taken from the end value (§3.1).
    public var byValue: Any?

    /// An animation with no key path and no values; set both before adding it.
    public override init() { super.init() }

    required public init(copying other: CAAnimation) {
        super.init(copying: other)
        if let o = other as? CABasicAnimation {
            fromValue = o.fromValue
            toValue = o.toValue
            byValue = o.byValue
        }
    }

    public override func validationError() -> String? {
        if let e = super.validationError() { return e }
        guard let kind = keyPathValueKind else { return nil }
        for (name, value) in [("fromValue", fromValue), ("toValue", toValue), ("byValue", byValue)] {
            guard let value else { continue }
            guard let v = AnimatableValue(value, as: kind) else { return "\(name): must be a \(kind.rawValue) value" }
            if !v.isFinite { return "\(name): must be finite" }
        }
        return nil
    }

    private var typedFrom: AnimatableValue?
    private var typedTo: AnimatableValue?
    private var typedBy: AnimatableValue?

    override func resolveValues(as kind: AnimatableValueKind) {
        typedFrom = fromValue.flatMap { AnimatableValue($0, as: kind) }
        typedTo = toValue.flatMap { AnimatableValue($0, as: kind) }
        typedBy = byValue.flatMap { AnimatableValue($0, as: kind) }
    }

    /// The interpolation end points for the current value, per Apple's from/to/by table.
    func endpoints(current: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        switch (typedFrom, typedTo, typedBy) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, f.adding(b))
        case let (nil, t?, b?): return (t.subtracting(b), t)
        case let (f?, nil, nil): return (f, current)
        case let (nil, t?, nil): return (current, t)
        case let (nil, nil, b?): return (current, current.adding(b))
        case (nil, nil, nil): return (current, current)
        }
    }

    /// The interpolation fraction at a sample; springs override it.
    func progress(at sample: TimingSample, timing: ResolvedTiming) -> CGFloat {
        fraction(of: sample, duration: timing.duration)
    }

    override func value(at sample: TimingSample, timing: ResolvedTiming, current: AnimatableValue) -> AnimatableValue? {
        let (from, to) = endpoints(current: current)
        return from.interpolated(to: to, progress(at: sample, timing: timing))
    }

    override func endValue(current: AnimatableValue) -> AnimatableValue? {
        endpoints(current: current).1
    }
}

import Foundation

/// How a keyframe animation computes values between its keyframes.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Straight-line interpolation between neighbouring keyframes (the default).
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Each keyframe's value held until the next key time, with no interpolation.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Linear at constant speed over the whole animation; key times and timing functions are ignored.
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// A smooth Catmull-Rom spline through the keyframes (docs/engine-model.md §3.2).
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// The cubic spline travelled at constant speed; key times and timing functions are ignored.
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")

    /// Whether keyTimes and timingFunctions are ignored (constant speed instead).
    var isPaced: Bool { self == .paced || self == .cubicPaced }
}

/// Whether a layer animated along a path turns to follow its tangent.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The layer turns to the path's tangent.
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// The layer turns to the path's tangent plus a half turn (it faces backwards).
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// Animates a property through a sequence of values or along a path (docs/engine-model.md §3.2).
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframe values, each of the key path's kind; ignored when `path` is set.
    public var values: [Any]?
    /// A path for point properties; when set, `values` are ignored. A `CGMutablePath` is stored as its snapshot.
    public var path: CGPath? {
        didSet { if let path, path is CGMutablePath { self.path = path.frozen } }
    }
    /// Fractions of the duration at which each value is reached, non-decreasing in 0…1.
    public var keyTimes: [CGFloat]?
    /// Timing function of each segment between two keyframes.
    public var timingFunctions: [CAMediaTimingFunction]?
    /// How values between keyframes are computed; `.linear` by default.
    public var calculationMode: CAAnimationCalculationMode = .linear
    /// Whether a layer following `path` turns with it; nil (no turning) by default.
    public var rotationMode: CAAnimationRotationMode?

    /// An animation with no key path, values or path.
    public override init() { super.init() }

    required public init(copying other: CAAnimation) {
        super.init(copying: other)
        if let o = other as? CAKeyframeAnimation {
            values = o.values
            path = o.path
            keyTimes = o.keyTimes
            timingFunctions = o.timingFunctions
            calculationMode = o.calculationMode
            rotationMode = o.rotationMode
        }
    }

    public override func validationError() -> String? {
        if let e = super.validationError() { return e }
        guard let kind = keyPathValueKind else { return nil }
        let count: Int
        if path != nil {
            guard kind == .point else { return "path: only point properties can follow a path" }
            count = PathSampler(path!).keyPoints.count
        } else {
            for (i, value) in (values ?? []).enumerated() {
                guard let v = AnimatableValue(value, as: kind) else { return "values[\(i)]: must be a \(kind.rawValue) value" }
                if !v.isFinite { return "values[\(i)]: must be finite" }
            }
            count = values?.count ?? 0
        }
        if let keyTimes {
            var previous: CGFloat = 0
            for t in keyTimes {
                if !t.isFinite || t < previous || t > 1 { return "keyTimes: must be non-decreasing in 0…1" }
                previous = t
            }
            let allowed = calculationMode == .discrete ? [count, count + 1] : [count]
            if !calculationMode.isPaced, count > 0, !allowed.contains(keyTimes.count) {
                return "keyTimes: has \(keyTimes.count) entries for \(count) values"
            }
        }
        return nil
    }

    private var track: KeyframeTrack?

    override func resolveValues(as kind: AnimatableValueKind) {
        let typed: [AnimatableValue]
        var sampler: PathSampler?
        if let path, kind == .point {
            let s = PathSampler(path)
            sampler = s
            typed = s.keyPoints.map(AnimatableValue.point)
        } else {
            typed = (values ?? []).compactMap { AnimatableValue($0, as: kind) }
        }
        track = KeyframeTrack(values: typed, keyTimes: keyTimes, timingFunctions: timingFunctions ?? [], mode: calculationMode, path: sampler)
    }

    override func value(at sample: TimingSample, timing: ResolvedTiming, current: AnimatableValue) -> AnimatableValue? {
        track?.value(at: fraction(of: sample, duration: timing.duration))?.value
    }

    override func endValue(current: AnimatableValue) -> AnimatableValue? {
        track?.value(at: 1)?.value
    }

    override func applyExtras(to props: inout LayerProperties, sample: TimingSample, timing: ResolvedTiming) {
        guard let rotationMode, let angle = track?.value(at: fraction(of: sample, duration: timing.duration))?.tangent else { return }
        let turn = rotationMode == .rotateAutoReverse ? angle + .pi : angle
        props.transform = CATransform3DConcat(CATransform3DMakeRotation(turn, 0, 0, 1), props.transform)
    }
}

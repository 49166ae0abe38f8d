import Foundation

/// Seconds of media time, as on Apple platforms.
public typealias CFTimeInterval = Double

/// How a timed object behaves outside its active duration.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The object has no effect outside its active duration (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The object keeps its final value after its active duration ends.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The object shows its first value before its begin time.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// The object fills both before its start and after its end.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    var fillsBackwards: Bool { self == .backwards || self == .both }
    var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Core Animation's timing protocol: layers and animations are timed objects whose time nests.
public protocol CAMediaTiming: AnyObject {
    /// When the object starts, in its parent's time (docs/engine-model.md §1–§2).
    var beginTime: CFTimeInterval { get set }
    /// Seconds of one simple cycle; layers ignore it (they have infinite duration).
    var duration: CFTimeInterval { get set }
    /// How fast its time runs against its parent's; 1 by default.
    var speed: Float { get set }
    /// Seconds added to its local time after `beginTime` and `speed` apply.
    var timeOffset: CFTimeInterval { get set }
    /// How many cycles it plays, may be fractional or `.infinity`; 0 plays one.
    var repeatCount: Float { get set }
    /// Seconds it plays for, repeating as needed; 0 uses `repeatCount`.
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each cycle plays forwards then backwards.
    var autoreverses: Bool { get set }
    /// What the object shows outside its active duration.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// Where a timed object is within its active duration at one parent time
/// (docs/engine-model.md §2).
struct TimingSample: Equatable {
    /// Seconds into the current cycle after autoreversing, in 0…duration.
    var simpleTime: CFTimeInterval
    /// Completed cycles before the current one.
    var iteration: Int
}

/// The timing parameters of one animation with its duration already resolved (> 0).
struct ResolvedTiming: Equatable {
    var beginTime: CFTimeInterval
    var duration: CFTimeInterval
    var speed: Double
    var timeOffset: CFTimeInterval
    var repeatCount: Double
    var repeatDuration: CFTimeInterval
    var autoreverses: Bool
    var fillsBackwards: Bool
    /// Fills forwards and stays attached after its active duration.
    var holdsAfterEnd: Bool

    var cycle: CFTimeInterval { autoreverses ? duration * 2 : duration }

    /// The active duration: repeatDuration, else repeatCount cycles, else one cycle.
    var activeDuration: CFTimeInterval {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount.isInfinite ? .infinity : repeatCount * cycle }
        return cycle
    }

    /// Elapsed active time at a parent time, before phases are applied.
    func elapsed(at parentTime: CFTimeInterval) -> CFTimeInterval {
        speed == 0 ? 0 : (parentTime - beginTime) * speed
    }

    /// The sample at a parent time, or nil when the object has no effect then.
    func sample(at parentTime: CFTimeInterval) -> TimingSample? {
        let total = activeDuration
        let e = elapsed(at: parentTime)
        guard e.isFinite || total.isInfinite else { return nil }
        let active: CFTimeInterval
        var atEnd = false
        if e < 0 {
            guard fillsBackwards else { return nil }
            active = 0
        } else if e >= total {
            guard holdsAfterEnd, total.isFinite else { return nil }
            active = total
            atEnd = true
        } else {
            active = e
        }

        var local = active + timeOffset
        if total.isFinite, total > 0 {
            if atEnd, mod(timeOffset, total) == 0 {
                local = total
            } else {
                local = mod(local, total)
            }
        } else {
            local = max(0, local)
        }

        let c = cycle
        var iteration = (local / c).rounded(.down)
        var cycleTime = local - iteration * c
        if cycleTime == 0, local > 0, local == total {
            iteration -= 1
            cycleTime = c
        }
        let simple = autoreverses && cycleTime > duration ? c - cycleTime : cycleTime
        return TimingSample(simpleTime: min(max(simple, 0), duration), iteration: Int(min(max(iteration, 0), 1e15)))
    }
}

@inline(__always)
func mod(_ a: Double, _ b: Double) -> Double {
    a - b * (a / b).rounded(.down)
}

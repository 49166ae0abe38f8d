import LayercastPlatform

/// Where the cluster reads the time: monotonic seconds, the time base of its leases, silences,
/// reports and publishing (and of the hub's `publishFrames(until:)`). A node reads the system's
/// (`MonotonicClock`); tests move one of their own.
public protocol ClusterClock: AnyObject {
    /// Seconds on a monotonic clock.
    var now: Double { get }
}

/// The system's monotonic clock (`monotonicSeconds`), the same as the hub's transport's.
public final class MonotonicClock: ClusterClock, Sendable {
    public init() {}

    public var now: Double { monotonicSeconds() }
}

import Foundation

/// A source of media time in seconds (the name follows Apple's media-timing vocabulary:
/// `CACurrentMediaTime`, `CAMediaTiming`). The one clock of the whole service: scenes, the hub,
/// its transports and the cluster read the time through one, injected (`MonotonicClock` in
/// production, `ManualClock` in tests). Not the load tool's estimate of a server's clock.
public protocol MediaClock: AnyObject {
    /// The media time now, in seconds; what `CACurrentMediaTime()` reads through the scene's context.
    var now: CFTimeInterval { get }
}

/// This machine's monotonic clock (CLOCK_MONOTONIC), as `CACurrentMediaTime()` reads on iOS.
public final class MonotonicClock: MediaClock, Sendable {
    /// The machine's monotonic clock.
    public init() {}

    /// Seconds since an arbitrary fixed point (the machine's boot), never decreasing.
    public var now: CFTimeInterval {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return CFTimeInterval(ts.tv_sec) + CFTimeInterval(ts.tv_nsec) / 1_000_000_000
    }
}

/// A clock that only moves when told: for tests, replays and deterministic simulation.
public final class ManualClock: MediaClock {
    /// The time the clock reads; set it, or `advance(by:)` it, to move time.
    public var now: CFTimeInterval

    /// A clock reading `now` until moved.
    public init(now: CFTimeInterval = 0) { self.now = now }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: CFTimeInterval) { now += seconds }
}

/// A token bucket: `rate` events per second on average, bursts of up to `burst`.
public struct RateLimiter: Sendable {
    /// Tokens added per second: the average events allowed per second.
    public let rate: Double
    /// The bucket's capacity: the most events allowed at once after an idle spell.
    public let burst: Double
    private var tokens: Double
    private var updated: Double?

    /// A full bucket refilled at `rate` per second up to `burst` tokens.
    public init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Whether the bucket would be full at `now` (it has been idle long enough to refill).
    public func isFull(at now: Double) -> Bool {
        guard let updated else { return true }
        return tokens + (now - updated) * rate >= burst
    }

    /// Takes one token at time `now` (seconds); false when the bucket is empty.
    public mutating func allow(at now: Double) -> Bool {
        if let updated { tokens = min(burst, tokens + (now - updated) * rate) }
        updated = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}

/// Counts events in a sliding window; `record` says when `limit` events fell within `window` seconds.
public struct AbuseWindow: Sendable {
    /// How many events within `window` count as abuse.
    public let limit: Int
    /// The window's length in seconds.
    public let window: Double
    private var times: [Double] = []

    /// A window that reports once `limit` events fall within `window` seconds.
    public init(limit: Int, window: Double) {
        self.limit = limit
        self.window = window
    }

    /// Records one event at `now`; true once `limit` events are within the window.
    public mutating func record(at now: Double) -> Bool {
        times.removeAll { now - $0 > window }
        times.append(now)
        return times.count >= limit
    }
}

/// What one client address may do (`--host-connections`, `--host-anonymous-joins`,
/// `--host-tap-rate`). The defaults leave room for many players behind one carrier NAT.
public struct HostLimitRules: Sendable {
    /// WebSocket connections held at once.
    public var connections = 100
    /// Anonymous player joins per minute (bursts of as many).
    public var anonymousJoinsPerMinute = 60
    /// Taps per second over all its players (bursts of as many).
    public var tapsPerSecond = 50.0

    public init() {}
}

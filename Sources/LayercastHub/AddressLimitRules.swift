/// What one client address may do (`--host-connections`, `--host-anonymous-joins`,
/// `--host-tap-rate`). The defaults leave room for a few dozen players behind one NAT tapping
/// as fast as a scene allows; a campaign whose players share carrier-grade NAT addresses raises
/// them (docs/protocol.md, "Limits per address").
public struct AddressLimitRules: Sendable {
    /// WebSocket connections held at once.
    public var connections = 256
    /// Anonymous player joins per minute (bursts of as many).
    public var anonymousJoinsPerMinute = 120
    /// Taps per second over all its players (bursts of as many).
    public var tapsPerSecond = 200.0

    public init() {}
}

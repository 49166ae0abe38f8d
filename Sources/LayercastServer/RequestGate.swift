/// The HTTP connections whose next request head is awaited: lws does not read them (rx flow
/// control off) until the whole head has arrived in the socket and passed `RequestFraming`
/// (Server+Gate.swift). A timer looks at them every `interval` while there are any.
final class RequestGate {
    /// Each held connection with the time (monotonic seconds) its head must be whole by: `--head-timeout`
    /// after it was accepted, then after its first byte once one has arrived.
    var held: [OpaquePointer: HeldRequest] = [:]
    /// Connections whose answer lws is still sending; held once it is out.
    var flushing: Set<OpaquePointer> = []
    /// The request target of each WebSocket handshake let through, as sent, until the
    /// handshake is decided (its query is read with QueryString, not lws).
    var handshakeTargets: [OpaquePointer: String] = [:]
    /// Whether the server's gate timer is due.
    var scheduled = false

    /// Seconds between looks at the held sockets.
    static let interval = 0.002
    /// The largest request head read; a longer one is refused with 431.
    static let maxHead = 16 * 1024
}

/// A connection the gate holds: when its request head is due whole, and whether any of it has come.
struct HeldRequest {
    var deadline: Double
    var started: Bool
}

/// The HTTP connections whose next request head is awaited: lws does not read them (rx flow
/// control off) until the whole head has arrived in the socket and passed `RequestFraming`
/// (Server+Gate.swift). A timer looks at them every `interval` while there are any.
final class RequestGate {
    var held: Set<OpaquePointer> = []
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

/// The HTTP connections whose next request head is awaited: lws does not read them (rx flow
/// control off) until the whole head has arrived in the socket and passed `RequestFraming`
/// (Server+Gate.swift). A timer looks at them every `interval` while there are any.
final class RequestGate {
    /// The held connections, whose `Connection.heldRequest` the timer looks at.
    var held: Set<OpaquePointer> = []
    /// Whether the server's gate timer is due.
    var scheduled = false

    /// Seconds between looks at the held sockets.
    static let interval = 0.002
    /// The largest request head read; a longer one is refused with 431.
    static let maxHead = 16 * 1024
}

/// A connection the gate holds: when its request head is due whole (monotonic seconds:
/// `--head-timeout` after it was accepted, then after its first byte once one has arrived), and
/// whether any of it has come.
struct HeldRequest {
    var deadline: Double
    var started: Bool
}

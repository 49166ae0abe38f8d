import LayercastHub
import LayercastSceneAPI
import LayercastWire

/// What the server keeps of one lws connection, as lws's `per_session_data` would: made at its
/// first callback (`Server.hold`), removed at its close (`Server.forget`), and nowhere else.
/// While it is HTTP it has its request's state; once a WebSocket, its hub client and inbound stream.
final class Connection {
    /// When its request head must be whole while the gate holds it (`RequestGate`); nil once judged.
    var heldRequest: HeldRequest?
    /// Its answer is still being sent: the connection closes once lws has handed it all to the kernel.
    var flushing = false
    /// The request target of its WebSocket handshake, as sent, until the handshake is decided.
    var handshakeTarget: String?
    /// Its POST request whose body is arriving.
    var pendingPost: PendingPost?
    /// Its admin request waiting for a room's origin in the cluster to answer: `.some(nil)` until it has.
    var deferredAnswer: APIResponse??
    /// The join its handshake asked for, with the client's address, taken when it is established.
    var pendingJoin: (request: Result<JoinRequest, ProtocolError>, address: String)?
    /// Its hub client, from its establishment until its close begins.
    var client: ClientID?
    /// Its inbound stream, which the server reads itself once it is established (Server+Inbound.swift).
    var inbound: ClientInbound?
    /// The pong it is due, if any (the latest ping's payload).
    var pendingPong: [UInt8]?
    /// A close asked for (by the hub on the direct path, or an echo or failure), written by lws's
    /// writable callback.
    var closeDue: (code: Int, reason: String)?
    /// When its socket is closed if the client has not answered its close; set when the close begins
    /// (Server+Closing.swift).
    var closingDeadline: Double?
}

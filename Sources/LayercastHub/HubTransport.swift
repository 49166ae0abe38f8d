import LayercastEngine

/// What the hub needs from the transport that carries its clients (LayercastServer on
/// libwebsockets; `EmbeddedTransport` in the tests). Called on the hub's thread only.
///
/// The hub wakes a client, and when the client's socket can take a message the transport asks
/// `Hub.nextWrite(for:)` for it. Only its tick writes, through `write(_:to:)`, and only to a client
/// the transport says can take a message at once. So the choice of what to send (the outbox, then
/// the newest frame, delta or full) is made at the moment of writing, and a slow client never
/// has a queue of stale frames.
public protocol HubTransport: AnyObject {
    /// The monotonic clock that is the time base of ticks, rooms, rate limits and stalls (the
    /// system's `MonotonicClock`, or a test's `ManualClock`); the hub reads it once, at its making.
    var clock: any MediaClock { get }
    /// Bytes every encoded message leaves free before its text (libwebsockets' LWS_PRE), so a
    /// transport can frame it in place.
    var headroom: Int { get }
    /// `client` has something to write: ask `Hub.nextWrite(for:)` when it can take it.
    func wake(_ client: ClientID)
    /// Whether `client` can take a message at once, with nothing of an earlier one held back.
    func canWrite(_ client: ClientID) -> Bool
    /// Writes `message` to `client`, which `canWrite` said can take it; false when the connection
    /// failed (the transport then closes it).
    func write(_ message: EncodedMessage, to client: ClientID) -> Bool
    /// Closes `client` at once, without a goodbye (it is not taking data).
    func drop(_ client: ClientID)
    /// Writes the transport's own families of `/metrics` (its refusals and protocol failures),
    /// which the hub's text places after `layercast_host_refusals_total`.
    func writeMetrics(into text: inout PrometheusText)
}

/// A client of the hub, numbered by its transport (unique for the hub's life), with the
/// transport's own reference to it (its socket) and flags of its own, which the hub hands back in
/// `wake` and `drop` and never looks at. Two ids are the same client when their numbers are equal.
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    public let number: Int
    public nonisolated(unsafe) let handle: OpaquePointer?
    /// The transport's flags for the connection (LayercastServer: whether it takes
    /// permessage-deflate), kept here so the write path reads them without touching the socket.
    public let transportFlags: UInt8

    public init(_ number: Int, handle: OpaquePointer? = nil, transportFlags: UInt8 = 0) {
        self.number = number
        self.handle = handle
        self.transportFlags = transportFlags
    }

    public static func == (a: ClientID, b: ClientID) -> Bool { a.number == b.number }
    public func hash(into hasher: inout Hasher) { hasher.combine(number) }

    /// The id the protocol shows (`welcome.client`, events): `c` + the number.
    public var description: String { "c\(number)" }
}

/// What a transport writes next to a client (`Hub.nextWrite(for:)`).
public enum HubWrite {
    /// One WebSocket text message.
    case message(EncodedMessage)
    /// A close frame with this code and reason; then the connection ends.
    case close(code: Int, reason: String)
}

/// The WebSocket close codes the hub uses (RFC 6455 §7.4.1).
public enum CloseCode {
    public static let goingAway = 1001
    public static let policyViolation = 1008
    /// A room this node stepped down from, or a join a node cut off from the cluster refused:
    /// reconnect at once, through the proxy, to a node that serves the room (docs/cluster.md).
    public static let serviceRestart = 1012
    public static let tryAgainLater = 1013
}

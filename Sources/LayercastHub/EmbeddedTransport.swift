import LayercastEngine
import LayercastJSON

/// A transport with no sockets, for tests and tools (as swift-nio's `EmbeddedChannel` is): a
/// manual clock, and clients whose writes are taken when the test reads them. A client that is
/// not read is a slow client: the hub keeps choosing its newest frame. Clients in `takesAtOnce`
/// are written by the hub's tick itself, as a socket with room is.
public final class EmbeddedTransport: HubTransport {
    /// What a client was written, oldest first.
    public enum Written: Equatable {
        case message(JSONValue)
        case close(code: Int, reason: String)
    }

    /// The manual clock the hub reads (as swift-nio's `EmbeddedEventLoop` advances its time);
    /// `advance(by:)` or `now` moves it.
    public let manualClock: ManualClock
    /// `manualClock`, as the hub reads it (`HubTransport`).
    public var clock: any MediaClock { manualClock }
    /// The manual clock's time, in seconds.
    public var now: Double {
        get { manualClock.now }
        set { manualClock.now = newValue }
    }
    public let headroom = 16
    /// Clients woken since their last read.
    public private(set) var awake: Set<ClientID> = []
    /// Clients the hub dropped, in order.
    public private(set) var dropped: [ClientID] = []
    /// Clients that take a message at once (`canWrite`); none unless a test says so.
    public var takesAtOnce: Set<ClientID> = []
    /// What the hub wrote at once to clients in `takesAtOnce`, until `read` returns it.
    private var writtenAtOnce: [ClientID: [Written]] = [:]
    private var nextClient: Int

    /// A transport whose clock reads `now`, numbering clients from `firstClient`.
    public convenience init(now: Double = 1000, firstClient: Int = 1) {
        self.init(clock: ManualClock(now: now), firstClient: firstClient)
    }

    /// A transport on `clock`, which a test may share with other parts (a cluster node),
    /// numbering clients from `firstClient`.
    public init(clock: ManualClock, firstClient: Int = 1) {
        manualClock = clock
        nextClient = firstClient
    }

    public func wake(_ client: ClientID) { awake.insert(client) }
    public func canWrite(_ client: ClientID) -> Bool { takesAtOnce.contains(client) }

    public func write(_ message: EncodedMessage, to client: ClientID) -> Bool {
        writtenAtOnce[client, default: []].append(.message(Self.value(of: message)))
        return true
    }
    public func drop(_ client: ClientID) { dropped.append(client) }

    /// Writes nothing: without sockets this transport refuses no request and fails no connection.
    public func writeMetrics(into text: inout PrometheusText) {}

    /// A new client id, as a real transport numbers its connections.
    public func makeClientID() -> ClientID {
        defer { nextClient += 1 }
        return ClientID(nextClient)
    }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: Double) { manualClock.advance(by: seconds) }

    /// Everything `client` can be written now, as its socket would take it: the hub's writes in
    /// turn until it has nothing more, or until a close (after which the client is gone).
    public func read(_ client: ClientID, from hub: Hub, limit: Int = 10_000) -> [Written] {
        defer { awake.remove(client) }  // the hub's wakes during the read are for what the read took
        var written = writtenAtOnce.removeValue(forKey: client) ?? []
        while written.count < limit, let write = hub.nextWrite(for: client) {
            switch write {
            case .message(let message):
                written.append(.message(Self.value(of: message)))
            case .close(let code, let reason):
                written.append(.close(code: code, reason: reason))
                hub.disconnect(client)
                return written
            }
        }
        return written
    }

    /// The JSON value of an encoded message (null if it does not parse).
    private static func value(of message: EncodedMessage) -> JSONValue {
        var value = JSONValue.null
        _ = message.write { text in
            value = (try? JSONValue.parse(bytes: UnsafeRawBufferPointer(text))) ?? .null
            return true
        }
        return value
    }
}

import LayercastIdentity
import LayercastSceneAPI
import LayercastWire

/// One client of the hub: its room and role, what it still has to be sent, and its input limits.
final class Client {
    /// A message waiting to be written, and the arrival time of the tap it answers, if any.
    struct Outgoing {
        let message: EncodedMessage
        let tapArrival: Double?
    }

    let id: ClientID
    /// The id the protocol shows: `c` + the number.
    let name: String
    let role: ClientRole
    /// Who a player is, as everyone sees it; nil for spectators.
    let player: PublicPlayer?
    /// The client address it is counted under (`AddressLimits`).
    let address: String
    /// Whether it holds one of its address's connection slots.
    var holdsAddressSlot = false
    var room: Room?
    /// Messages written before any frame, oldest first.
    var outbox: [Outgoing] = []
    /// The number of the last frame written; -1 before the first.
    var lastFrameSent = -1
    /// Whether it acknowledges frames (it sent an `ack`): then no more frames are in flight to
    /// it than `acks` allows.
    var acknowledges = false
    /// Its frames in flight and how many may be, while it acknowledges.
    var acks: AckWindow
    /// The highest frame number it was ever written (frames are numbered afresh after a takeover).
    var highestFrameSent = -1
    /// When this client last took a message, on the monotonic clock.
    var lastWrite: Double
    /// The tick of the last frame written (full, delta or keepalive).
    var lastFrameAt: Double
    /// Set when the connection is to close once its outbox is written: the close code and reason.
    var closing: (code: Int, reason: String)?
    /// The fragments of the message being received; `oversize` once past the limit.
    var incoming: [UInt8] = []
    var oversize = false
    var drags = RateLimiter(rate: 120, burst: 120)
    var errors = AbuseWindow(limit: 20, window: 10)

    /// The most messages an outbox may hold; a client that lets more pile up is dropped.
    static let outboxLimit = 256

    init(id: ClientID, role: ClientRole, player: PublicPlayer? = nil, address: String, now: Double, tick: Double = 1.0 / 30) {
        acks = AckWindow(framesPerSecond: Int((1 / tick).rounded()), tick: tick)
        self.id = id
        name = id.description
        self.role = role
        self.player = player
        self.address = address
        lastWrite = now
        lastFrameAt = now
        incoming.reserveCapacity(ClientMessage.maxBytes)
    }
}

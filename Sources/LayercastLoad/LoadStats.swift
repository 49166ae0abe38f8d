/// What a group of simulated clients measured; one per thread (and per worker process), merged
/// for the report by adding counts and histograms.
public struct LoadStats: Sendable, Codable {
    /// Connection attempts started.
    public var attempted = 0
    /// WebSocket handshakes completed.
    public var connected = 0
    /// Attempts that never completed the handshake.
    public var failed = 0
    /// Connections the server closed before the end of the run.
    public var closedEarly = 0
    /// Connections open now.
    public var open = 0
    /// Connections the clients closed themselves before the end: a scenario's churn, or its
    /// stages lowering the target.
    public var left = 0
    /// Connections started again by a client that had left (churn, or the target rising again).
    public var rejoins = 0
    /// Connection attempts started after a close the client did not ask for (a scenario's `reconnect`).
    public var reconnects = 0
    /// Such closes followed by a `welcome`; `reconnectTime` is from the close to that welcome.
    public var reconnected = 0
    public var reconnectTime = LatencyHistogram()
    /// From the same close to the first frame of the connection whose `welcome` ended it: one per
    /// `reconnected`, less those whose connection closed (or the run ended) before a frame.
    public var reconnectFrameTime = LatencyHistogram()
    /// Seconds from starting a connection to the completed handshake.
    public var connectTime = LatencyHistogram()
    /// Client-seconds spent connected (for frames per client per second).
    public var connectedSeconds = 0.0

    public var frames = 0
    /// Frames of the room that clients did not get, from gaps in `n`.
    public var skipped = 0
    /// The view's age, sampled as each frame arrives: seconds from the newest media time `t` the
    /// client has (this frame's, or a later one's that came before it) to the frame's receipt, on
    /// the client's estimate of the server's clock (`ServerClockEstimate`). A frame waiting in a
    /// capped client's socket (`readBytesPerSecond`) ages until it is read.
    public var frameAge = LatencyHistogram()
    /// `ack` messages queued (a population's `acks`, when the server takes them): one per frame.
    public var acksSent = 0

    public var tapsSent = 0
    /// Drag gestures begun, and the drag messages sent for them (`began`, `moved`, `ended`).
    public var dragsBegun = 0
    public var dragMessagesSent = 0
    /// Taps whose `tap` event came back.
    public var tapsAnswered = 0
    /// Answers by `result` (`award`, `taken`, `miss`, `closed`).
    public var tapResults: [String: Int] = [:]
    /// Seconds from sending a tap to receiving its `tap` event.
    public var tapLatency = LatencyHistogram()
    /// `award` events for the tool's own clients, and the coins they carried.
    public var awards = 0
    public var coins = 0

    /// WebSocket payload bytes received and sent (framing not counted; what the server's
    /// `layercast_bytes_sent_total` counts on its side).
    public var bytesIn = 0
    public var bytesOut = 0
    /// Errors by code: the server's `error` codes, and the tool's own (`connect_failed`,
    /// `closed_by_server`, `bad_message`, `out_of_order`).
    public var errors: [String: Int] = [:]

    public init() {}

    public var errorCount: Int { errors.values.reduce(0, +) }

    public mutating func merge(_ other: LoadStats) {
        attempted += other.attempted
        connected += other.connected
        failed += other.failed
        closedEarly += other.closedEarly
        open += other.open
        left += other.left
        rejoins += other.rejoins
        reconnects += other.reconnects
        reconnected += other.reconnected
        reconnectTime.add(other.reconnectTime)
        reconnectFrameTime.add(other.reconnectFrameTime)
        connectTime.add(other.connectTime)
        connectedSeconds += other.connectedSeconds
        frames += other.frames
        skipped += other.skipped
        frameAge.add(other.frameAge)
        acksSent += other.acksSent
        tapsSent += other.tapsSent
        dragsBegun += other.dragsBegun
        dragMessagesSent += other.dragMessagesSent
        tapsAnswered += other.tapsAnswered
        tapResults.merge(other.tapResults, uniquingKeysWith: +)
        tapLatency.add(other.tapLatency)
        awards += other.awards
        coins += other.coins
        bytesIn += other.bytesIn
        bytesOut += other.bytesOut
        errors.merge(other.errors, uniquingKeysWith: +)
    }
}

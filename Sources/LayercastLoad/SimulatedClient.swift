import LayercastJSON

/// One scripted viewer: its connection's state, what it has learnt from the server (its id, the
/// scene size, the media clock, the frames and, for aiming players, the packets), and the
/// messages it wants to send. Fed by `ClientLoop`; measures into the loop's `LoadStats`.
final class SimulatedClient {
    enum State: Equatable {
        /// Not started: its connection opens at `startAt`.
        case waiting
        case connecting(since: Double)
        case open(since: Double)
        case closed
    }

    let index: Int
    /// Monotonic time its connection is due to open (the ramp).
    let startAt: Double
    let configuration: LoadConfiguration
    var state = State.waiting
    /// The libwebsockets connection while connecting or open.
    var wsi: OpaquePointer?

    private(set) var clientID: String?
    private var sceneSize = (width: 0.0, height: 0.0)
    private(set) var frames = FrameSequence()
    private var clock = ServerClockEstimate()
    private var board: PacketBoard?
    /// How long a packet must have been on screen before a tap can claim it: the running rain's
    /// `limits.minVisible` from its `rain` events (0 until one says).
    private var minVisible = 0.0
    /// `t` of the newest frame: the view time of a tap.
    private var viewTime: Double?
    /// Messages waiting for a writable callback, oldest first.
    private(set) var outbox: [JSONValue] = []
    /// Send times of the taps not yet answered, by tap id.
    private var pendingTaps: [Int: Double] = [:]
    private var nextTapID = 1
    private var nextTapAt = Double.infinity
    private var nextPingAt = Double.infinity
    private var nextPingID = 1
    /// The fragments of the message being received.
    var receiveBuffer: [UInt8] = []

    init(index: Int, startAt: Double, configuration: LoadConfiguration) {
        self.index = index
        self.startAt = startAt
        self.configuration = configuration
        if configuration.role == .player, configuration.aim == .aim { board = PacketBoard() }
    }

    /// The handshake completed at `now`.
    func established(at now: Double, stats: inout LoadStats) {
        if case .connecting(let since) = state { stats.connectTime.record(seconds: now - since) }
        stats.connected += 1
        stats.open += 1
        state = .open(since: now)
        nextPingAt = now
        if configuration.tapsPerSecond > 0 {
            nextTapAt = now + Double.random(in: 0..<(1 / configuration.tapsPerSecond))
        }
    }

    /// The connection ended at `now`; `finished` when the run closed it.
    func closed(at now: Double, finished: Bool, stats: inout LoadStats) {
        switch state {
        case .connecting:
            stats.failed += 1
            stats.errors["connect_failed", default: 0] += 1
        case .open(let since):
            stats.open -= 1
            stats.connectedSeconds += now - since
            if !finished {
                stats.closedEarly += 1
                stats.errors["closed_by_server", default: 0] += 1
            }
        case .waiting, .closed:
            break
        }
        state = .closed
        wsi = nil
        outbox.removeAll()
    }

    // MARK: Receiving

    /// One whole text message that arrived at `now`. A frame is read from its prefix unless the
    /// client aims at packets (then its display list is applied too).
    func receive(_ bytes: UnsafeRawBufferPointer, at now: Double, stats: inout LoadStats, window: inout ProgressWindow) {
        stats.bytesIn += bytes.count
        if board == nil, let prefix = FramePrefix(bytes) {
            return frame(number: prefix.number, time: prefix.time, at: now, stats: &stats, window: &window)
        }
        guard let message = try? JSONValue.parse(bytes: bytes), let type = message["type"]?.stringValue else {
            stats.errors["bad_message", default: 0] += 1
            return
        }
        switch type {
        case "frame":
            guard let n = message["n"]?.intValue, let t = message["t"]?.doubleValue else {
                stats.errors["bad_message", default: 0] += 1
                return
            }
            frame(number: n, time: t, at: now, stats: &stats, window: &window)
            board?.apply(frame: message)
        case "event": event(message, at: now, stats: &stats)
        case "welcome":
            clientID = message["client"]?.stringValue
            sceneSize = (message["size"]?["width"]?.doubleValue ?? 0, message["size"]?["height"]?.doubleValue ?? 0)
            if let time = message["time"]?.doubleValue { clock.observe(mediaTime: time, receivedAt: now) }
        case "pong":
            if let time = message["time"]?.doubleValue { clock.observe(mediaTime: time, receivedAt: now) }
        case "error":
            stats.errors[message["code"]?.stringValue ?? "error", default: 0] += 1
        default:
            stats.errors["bad_message", default: 0] += 1
        }
    }

    private func frame(number n: Int, time t: Double, at now: Double, stats: inout LoadStats, window: inout ProgressWindow) {
        let before = frames
        stats.skipped += frames.record(n)
        if frames.outOfOrder > before.outOfOrder { stats.errors["out_of_order", default: 0] += 1 }
        stats.frames += 1
        window.frames += 1
        clock.observe(mediaTime: t, receivedAt: now)
        if let age = clock.age(of: t, receivedAt: now) {
            stats.frameAge.record(seconds: age)
            window.frameAge.record(seconds: age)
        }
        viewTime = t
    }

    private func event(_ message: JSONValue, at now: Double, stats: inout LoadStats) {
        let data = message["data"]
        if message["name"]?.stringValue == "rain", let seconds = data?["limits"]?["minVisible"]?.doubleValue { minVisible = seconds }
        guard let by = message["by"]?.stringValue, by == clientID else { return }
        switch message["name"]?.stringValue {
        case "tap":
            guard let id = data?["id"]?.intValue, let sentAt = pendingTaps.removeValue(forKey: id) else { return }
            stats.tapsAnswered += 1
            stats.tapLatency.record(seconds: now - sentAt)
            stats.tapResults[data?["result"]?.stringValue ?? "unknown", default: 0] += 1
        case "award":
            stats.awards += 1
            stats.coins += data?["coins"]?.intValue ?? 0
        default:
            break
        }
    }

    // MARK: Sending

    /// Queues the taps and pings due by `now`; true when something waits to be sent.
    func poll(at now: Double, stats: inout LoadStats) -> Bool {
        guard case .open = state else { return false }
        if now >= nextPingAt {
            outbox.append(["type": "ping", "id": .number(Double(nextPingID))])
            nextPingID += 1
            nextPingAt = now + configuration.pingInterval
        }
        if now >= nextTapAt {
            let interval = 1 / configuration.tapsPerSecond
            nextTapAt = max(nextTapAt + interval, now)  // no bursts after a stall
            if let tap = nextTap() {
                pendingTaps[nextTapID] = now
                outbox.append(["type": "tap", "x": .number(tap.x), "y": .number(tap.y), "viewTime": .number(tap.viewTime),
                               "id": .number(Double(nextTapID))])
                nextTapID += 1
                stats.tapsSent += 1
            }
        }
        return !outbox.isEmpty
    }

    /// Takes the oldest queued message.
    func takeMessage() -> JSONValue? {
        outbox.isEmpty ? nil : outbox.removeFirst()
    }

    /// Where the next tap goes (rounded to 0.01 pt) and the view time it saw; nil before the
    /// first frame, or when aiming and no unclaimed packet's centre is on screen.
    private func nextTap() -> (x: Double, y: Double, viewTime: Double)? {
        guard let viewTime else { return nil }
        if let board {
            // Only packets whose centre is on screen: the rain answers taps outside it `miss`.
            let onScreen = board.unclaimedCentres(seenFor: minVisible, at: viewTime).filter {
                (0...sceneSize.width).contains($0.x) && (0...sceneSize.height).contains($0.y)
            }
            guard let target = onScreen.randomElement() else { return nil }
            return (Self.round(target.x), Self.round(target.y), viewTime)
        }
        return (Self.round(Double.random(in: 0...max(sceneSize.width, 0))), Self.round(Double.random(in: 0...max(sceneSize.height, 0))), viewTime)
    }

    private static func round(_ x: Double) -> Double { (x * 100).rounded() / 100 }
}

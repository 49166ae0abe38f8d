import LayercastJSON

/// One scripted viewer: its connection's state, what it has learnt from the server (its id, the
/// scene size, the media clock, the frames and, for aiming players, the packets), and the
/// messages it wants to send. Fed by `ClientLoop`; measures into its population's `LoadStats`.
///
/// A client is a slot of its population (`Scenario`): it joins when the scenario wants its slot
/// filled (and `joinAt` has come), leaves when the slot is no longer wanted or its churn stay is
/// over, and after a close it did not ask for either reconnects with the page's backoff or
/// stays closed (`gone`).
final class SimulatedClient {
    enum State: Equatable {
        /// Not connected: it joins when wanted, from `joinAt`.
        case waiting
        case connecting(since: Double)
        case open(since: Double)
        case closed
    }

    let index: Int
    /// Its population (index into `Scenario.populations`) and its slot in it.
    let population: Int
    let slot: Int
    let behaviour: Scenario.Population
    /// Seconds between its `ping` messages; infinite: none.
    let pingInterval: Double
    var state = State.waiting
    /// The libwebsockets connection while connecting or open.
    var wsi: OpaquePointer?
    /// Monotonic time before which it does not (re)join: a churn's time away, a reconnect's backoff.
    var joinAt: Double
    /// Closed for good: the server closed it, or it could not connect, and it does not reconnect.
    private(set) var gone = false
    /// It asked to close (churn, or its slot no longer wanted): the close is a leave.
    private(set) var leaving = false
    /// When a churning client leaves (monotonic).
    private(set) var leaveAt = Double.infinity
    /// When the close it did not ask for happened, until the next `welcome`.
    private var droppedAt: Double?
    /// When that close happened, from the `welcome` that ended it until the connection's first frame.
    private var awaitingFrameSince: Double?
    /// Whether its next connection is a rejoin (it left before) or a reconnect (it was dropped).
    private var hasLeft = false
    private var backoff = ReconnectBackoff()

    private(set) var clientID: String?
    private var sceneSize = (width: 0.0, height: 0.0)
    private(set) var frames = FrameSequence()
    private var clock = ServerClockEstimate()
    private var board: PacketBoard?
    /// How long a packet must have been on screen before a tap can claim it: the running rain's
    /// `limits.minVisible` from its `rain` events (0 until one says).
    private var minVisible = 0.0
    /// `t` of the newest frame: the view time of a tap, and what the view's age is measured from.
    private var viewTime: Double?
    /// Whether it acknowledges frames on this connection: its population's `acks`, and the
    /// server's `welcome.features` has `acks`.
    private(set) var acking = false
    /// What it may still read on this connection under its population's `readBytesPerSecond`; nil: no cap.
    private(set) var readBudget: ReadBudget?
    /// Its connection's reading is paused (`lws_rx_flow_control`) until the budget refills.
    var readPaused = false
    /// Messages waiting for a writable callback, oldest first.
    private(set) var outbox: [JSONValue] = []
    /// Send times of the taps not yet answered, by tap id.
    private var pendingTaps: [Int: Double] = [:]
    private var nextTapID = 1
    private var nextTapAt = Double.infinity
    /// When the next drag gesture begins, and the one under way: where it began, its next step and when.
    private var nextDragAt = Double.infinity
    private var drag: (start: (x: Double, y: Double), step: Int, at: Double)?
    private var nextPingAt = Double.infinity
    private var nextPingID = 1
    /// The fragments of the message being received.
    var receiveBuffer: [UInt8] = []

    init(index: Int, population: Int, slot: Int, behaviour: Scenario.Population, joinAt: Double = -.infinity, pingInterval: Double = 2) {
        self.index = index
        self.population = population
        self.slot = slot
        self.behaviour = behaviour
        self.joinAt = joinAt
        self.pingInterval = pingInterval
        if behaviour.role == .player, behaviour.aim == .aim { board = PacketBoard() }
    }

    /// Client `index` of today's flags: the one population of `configuration`, joining at `startAt`.
    convenience init(index: Int, startAt: Double, configuration: LoadConfiguration) {
        let scenario = Scenario(single: configuration)
        self.init(index: index, population: 0, slot: index, behaviour: scenario.populations[0], joinAt: startAt,
                  pingInterval: configuration.pingInterval)
    }

    /// A connection is starting at `now`: counts a rejoin or a reconnect.
    func connecting(at now: Double, stats: inout LoadStats) {
        state = .connecting(since: now)
        leaving = false
        acking = false
        readBudget = behaviour.readBytesPerSecond.map { ReadBudget(bytesPerSecond: $0, at: now) }
        readPaused = false
        stats.attempted += 1
        if hasLeft || droppedAt != nil {
            // A new connection: its frames are numbered from where the room is now, and after a
            // server restart its media clock is another.
            frames = FrameSequence()
            clock = ServerClockEstimate()
            viewTime = nil
            if board != nil { board = PacketBoard() }
        }
        if droppedAt != nil { stats.reconnects += 1 } else if hasLeft { stats.rejoins += 1 }
    }

    /// Asks to close (the caller makes lws close it): churn or the target falling.
    func leave() {
        leaving = true
        leaveAt = .infinity
    }

    /// The handshake completed at `now`.
    func established(at now: Double, stats: inout LoadStats) {
        if case .connecting(let since) = state { stats.connectTime.record(seconds: now - since) }
        stats.connected += 1
        stats.open += 1
        state = .open(since: now)
        nextPingAt = pingInterval.isFinite ? now : .infinity
        if behaviour.tapsPerSecond > 0 {
            nextTapAt = now + Double.random(in: 0..<(1 / behaviour.tapsPerSecond))
        }
        if behaviour.dragsPerSecond > 0 {
            nextDragAt = now + Double.random(in: 0..<(1 / behaviour.dragsPerSecond))
        }
        drag = nil
        if let churn = behaviour.churn { leaveAt = now + churn.stay.random() }
    }

    /// The connection ended at `now`; `finished` when the run closed it. A close it asked for
    /// is a leave (after a churn stay it stays away a while); any other close or failed attempt
    /// schedules a reconnect when its population reconnects, else it is gone for good.
    func closed(at now: Double, finished: Bool, stats: inout LoadStats) {
        var dropped = false
        switch state {
        case .connecting:
            if !leaving && !finished {
                stats.failed += 1
                stats.errors["connect_failed", default: 0] += 1
                dropped = true
            }
        case .open(let since):
            stats.open -= 1
            stats.connectedSeconds += now - since
            if leaving && !finished {
                stats.left += 1
            } else if !finished {
                stats.closedEarly += 1
                stats.errors["closed_by_server", default: 0] += 1
                dropped = true
            }
        case .waiting, .closed:
            break
        }
        if leaving && !finished {
            hasLeft = true
            // A churn leave is followed by time away; a slot no longer wanted may rejoin when it is again.
            joinAt = behaviour.churn.map { now + $0.away.random() } ?? now
        } else if dropped {
            if behaviour.reconnect {
                if droppedAt == nil { droppedAt = now }
                joinAt = now + backoff.next()
            } else {
                gone = true
            }
        }
        leaving = false
        leaveAt = .infinity
        awaitingFrameSince = nil
        nextTapAt = .infinity
        nextDragAt = .infinity
        drag = nil
        nextPingAt = .infinity
        pendingTaps.removeAll()
        state = .closed
        wsi = nil
        outbox.removeAll()
        receiveBuffer.removeAll()
        readPaused = false
    }

    // MARK: Receiving

    /// One whole text message that arrived at `now`. A frame is read from its prefix unless the
    /// client aims at packets (then its display list is applied too).
    func receive(_ bytes: UnsafeRawBufferPointer, at now: Double, stats: inout LoadStats, window: inout ProgressWindow) {
        stats.bytesIn += bytes.count
        if board == nil, let prefix = FramePrefix(bytes) {
            return frame(number: prefix.number, base: prefix.base, time: prefix.time, at: now, stats: &stats, window: &window)
        }
        guard let message = try? JSONValue.parse(bytes: bytes), let type = message["type"]?.stringValue else {
            stats.errors["bad_message", default: 0] += 1
            return
        }
        switch type {
        case "frame":
            let full = message["full"]?.boolValue == true
            guard let n = message["n"]?.intValue, let t = message["t"]?.doubleValue,
                  full || FramePrefix.base(of: message, number: n) != nil else {
                stats.errors["bad_message", default: 0] += 1
                return
            }
            frame(number: n, base: full ? nil : FramePrefix.base(of: message, number: n), time: t, at: now,
                  stats: &stats, window: &window)
            board?.apply(frame: message)
        case "event": event(message, at: now, stats: &stats, window: &window)
        case "welcome":
            if let droppedAt {
                stats.reconnected += 1
                stats.reconnectTime.record(seconds: now - droppedAt)
                awaitingFrameSince = droppedAt
                self.droppedAt = nil
            }
            backoff.reset()  // as the page does on a welcome
            clientID = message["client"]?.stringValue
            sceneSize = (message["size"]?["width"]?.doubleValue ?? 0, message["size"]?["height"]?.doubleValue ?? 0)
            if let time = message["time"]?.doubleValue { clock.observe(mediaTime: time, receivedAt: now) }
            acking = behaviour.acks && message["features"]?.arrayValue?.contains(.string("acks")) == true
        case "pong":
            if let time = message["time"]?.doubleValue { clock.observe(mediaTime: time, receivedAt: now) }
        case "error":
            stats.errors[message["code"]?.stringValue ?? "error", default: 0] += 1
        default:
            stats.errors["bad_message", default: 0] += 1
        }
    }

    private func frame(number n: Int, base: Int?, time t: Double, at now: Double, stats: inout LoadStats, window: inout ProgressWindow) {
        if let since = awaitingFrameSince {
            stats.reconnectFrameTime.record(seconds: now - since)
            awaitingFrameSince = nil
        }
        let before = frames
        stats.skipped += frames.record(n, base: base)
        if frames.outOfOrder > before.outOfOrder { stats.errors["out_of_order", default: 0] += 1 }
        stats.frames += 1
        window.frames += 1
        clock.observe(mediaTime: t, receivedAt: now)
        let newest = max(t, viewTime ?? t)
        if let age = clock.age(of: newest, receivedAt: now) {
            stats.frameAge.record(seconds: age)
            window.frameAge.record(seconds: age)
        }
        viewTime = newest
        if acking {
            outbox.append(["type": "ack", "n": .number(Double(n))])
            stats.acksSent += 1
        }
    }

    // MARK: Reading under a cap

    /// Counts `count` bytes its connection read at `now`; true when its read cap is spent and
    /// the caller must pause reading.
    func read(_ count: Int, at now: Double) -> Bool {
        guard readBudget != nil else { return false }
        readBudget?.refill(at: now)
        readBudget?.spend(count)
        return readBudget?.allowsReading == false
    }

    /// Refills its read budget at `now`; true when its reading is paused and may resume.
    func refillReads(at now: Double) -> Bool {
        readBudget?.refill(at: now)
        return readPaused && readBudget?.allowsReading == true
    }

    private func event(_ message: JSONValue, at now: Double, stats: inout LoadStats, window: inout ProgressWindow) {
        let data = message["data"]
        if message["name"]?.stringValue == "rain", let seconds = data?["limits"]?["minVisible"]?.doubleValue { minVisible = seconds }
        guard let by = message["by"]?.stringValue, by == clientID else { return }
        switch message["name"]?.stringValue {
        case "tap":
            guard let id = data?["id"]?.intValue, let sentAt = pendingTaps.removeValue(forKey: id) else { return }
            stats.tapsAnswered += 1
            stats.tapLatency.record(seconds: now - sentAt)
            window.tapLatency.record(seconds: now - sentAt)
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
            nextPingAt = now + pingInterval
        }
        if now >= nextTapAt {
            let interval = 1 / behaviour.tapsPerSecond
            nextTapAt = max(nextTapAt + interval, now)  // no bursts after a stall
            if let tap = nextTap() {
                pendingTaps[nextTapID] = now
                outbox.append(["type": "tap", "x": .number(tap.x), "y": .number(tap.y), "viewTime": .number(tap.viewTime),
                               "id": .number(Double(nextTapID))])
                nextTapID += 1
                stats.tapsSent += 1
            }
        }
        pollDrag(at: now, stats: &stats)
        return !outbox.isEmpty
    }

    /// Seconds a drag gesture lasts: a quarter second, or less when gestures come faster.
    private var dragDuration: Double { min(0.25, 0.8 / behaviour.dragsPerSecond) }

    /// Queues the drag step due by `now`: a gesture begins at a random point of the scene's upper
    /// half, moves `dragSteps` times evenly 120 points down (a full pull), and ends.
    private func pollDrag(at now: Double, stats: inout LoadStats) {
        if drag == nil, now >= nextDragAt, let viewTime {
            nextDragAt = max(nextDragAt + 1 / behaviour.dragsPerSecond, now)  // no bursts after a stall
            let start = (x: Self.round(Double.random(in: 0...max(sceneSize.width, 0))),
                         y: Self.round(Double.random(in: 0...max(sceneSize.height / 2, 0))))
            outbox.append(Self.dragMessage("began", start.x, start.y, viewTime))
            drag = (start, 1, now + dragDuration / Double(behaviour.dragSteps + 1))
            stats.dragsBegun += 1
            stats.dragMessagesSent += 1
        } else if let current = drag, now >= current.at, let viewTime {
            let done = current.step > behaviour.dragSteps
            let y = current.start.y + 120 * Double(min(current.step, behaviour.dragSteps)) / Double(behaviour.dragSteps)
            outbox.append(Self.dragMessage(done ? "ended" : "moved", current.start.x, Self.round(y), viewTime))
            drag = done ? nil : (current.start, current.step + 1, current.at + dragDuration / Double(behaviour.dragSteps + 1))
            stats.dragMessagesSent += 1
        }
    }

    private static func dragMessage(_ phase: String, _ x: Double, _ y: Double, _ viewTime: Double) -> JSONValue {
        ["type": "drag", "phase": .string(phase), "x": .number(x), "y": .number(y), "viewTime": .number(viewTime)]
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

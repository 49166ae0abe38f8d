import Foundation
import LayercastHub
import LayercastJSON
import LayercastPlatform
import LayercastScenes
import LayercastWire
import Logging

/// This process as one node of a cluster on Redis (docs/cluster.md): it places each room it opens
/// (a lease decides the one origin), publishes the frames and events of the rooms it is origin
/// of, relays the others' to its own clients, forwards their input to the origin, and takes a
/// room over when its origin falls silent and its lease lapses.
///
/// Threading: everything but `start` and `stop` runs on the hub's thread; Redis I/O runs on the
/// link's thread, which wakes the hub's through `notify` (the transport's `lws_cancel_service`).
public final class ClusterNode: HubCluster {
    /// What the cluster side knows of a room this node holds.
    private struct RoomState {
        /// A claim of its lease is in flight.
        var claiming = false
        /// Whether this node is subscribed to its channel.
        var subscribed = false
        /// When a frame was last relayed (or the room was placed), monotonic.
        var lastFrameAt: Double
        /// When a full frame was last asked for.
        var lastFullRequest = -Double.infinity
        /// The origin it is relayed from; nil while placing or when this node is the origin.
        var origin: String?
    }

    /// What a command's reply is for.
    private enum Pending {
        case claim(String)
        case renew(String)
        case reports
        case ignored
    }

    public let node: String
    public let address: RedisAddress
    public let timing: ClusterTiming
    private unowned let hub: Hub
    private let link: ClusterLink
    private let logger: Logger
    private var metrics = ClusterMetrics()
    private var connected = false
    private var everConnected = false
    private var connectedAt = -Double.infinity
    private var rooms: [String: RoomState] = [:]
    private var reports: [String: NodeReport] = [:]
    private var pending: [Int: Pending] = [:]
    private var nextTag = 1
    private var lastRenewal = -Double.infinity
    private var lastReport = -Double.infinity

    /// A node `node` of the cluster at `address`, serving `hub`. `notify` must make the hub's
    /// thread call `handleEvents()` soon; it is called from the link's thread.
    public init(node: String, address: RedisAddress, hub: Hub, timing: ClusterTiming = ClusterTiming(), logger: Logger,
                notify: @escaping @Sendable () -> Void) {
        self.node = node
        self.address = address
        self.hub = hub
        self.timing = timing
        self.logger = logger
        link = ClusterLink(address: address, logger: logger, notify: notify)
    }

    /// Registers a starting node: takes a range of client numbers from Redis (waiting up to
    /// `wait` seconds for it) so that client ids are unique over the cluster; answers the first
    /// number of the range. Called once, before the node serves.
    public static func clientRange(at address: RedisAddress, wait: Double = 5) throws(ClusterError) -> Int {
        let deadline = monotonicSeconds() + wait
        while true {
            do throws(ClusterError) {
                let connection = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1)
                guard case .integer(let range) = try connection.command(["INCR", ClusterKeys.clientRanges]) else {
                    throw ClusterError("INCR \(ClusterKeys.clientRanges) did not answer a number")
                }
                return (range % 9_000) * 1_000_000_000 + 1
            } catch {
                guard monotonicSeconds() < deadline else { throw ClusterError("\(error.message) (tried for \(Int(wait)) s)") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Starts the link to Redis and listens on this node's channel.
    public func start() {
        link.send([.subscribe(ClusterKeys.nodeChannel(node))])
        link.start()
    }

    /// Releases this node's leases and report, then stops the link (the server has stopped).
    public func stop() {
        var requests: [ClusterLink.Request] = hub.clusterRooms.filter { $0.source == .scene }.map { room in
            .command(Self.arguments(["EVAL", ClusterKeys.releaseScript, "1", ClusterKeys.lease(room.key), node]), tag: 0)
        }
        requests.append(.command(Self.arguments(["HDEL", ClusterKeys.nodes, node]), tag: 0))
        link.send(requests)
        link.stop()
    }

    // MARK: HubCluster

    public var health: JSONValue {
        ["status": .string(connected ? "ok" : "degraded"), "node": .string(node), "cluster": .string(address.description)]
    }

    public var metricsText: String {
        let rooms = hub.clusterRooms
        let origin = rooms.filter { $0.source == .scene }.count
        let relayed = rooms.filter { if case .origin = $0.source { true } else { false } }.count
        return metrics.render(originRooms: origin, relayedRooms: relayed, connected: connected)
    }

    public func roomsDocument(fps: Int) -> JSONValue {
        var all = reports.filter { $0.key != node && isFresh($0.value) }
        all[node] = NodeReport(node: node, at: Self.wallMilliseconds(), presence: hub.clusterRooms)
        return ClusterRooms.document(Array(all.values), fps: fps)
    }

    public func opened(_ key: String) {
        rooms[key] = RoomState(lastFrameAt: monotonicSeconds())
        if connected { claim(key) }
    }

    public func closed(_ key: String, origin: Bool) {
        if rooms.removeValue(forKey: key)?.subscribed == true { link.send([.unsubscribe(ClusterKeys.roomChannel(key))]) }
        if origin { command(["EVAL", ClusterKeys.releaseScript, "1", ClusterKeys.lease(key), node], for: .ignored) }
    }

    public func publish(frame: EncodedMessage, in key: String) {
        metrics.framesPublished += 1
        send(.frame(origin: node, text: frame.withBytes { ArraySlice($0) }), on: ClusterKeys.roomChannel(key))
    }

    public func publish(event: EncodedMessage, in key: String) {
        send(.event(origin: node, text: event.withBytes { ArraySlice($0) }), on: ClusterKeys.roomChannel(key))
    }

    public func deliver(_ message: EncodedMessage, to client: String, on node: String) {
        send(.delivery(client: client, text: message.withBytes { ArraySlice($0) }), on: ClusterKeys.nodeChannel(node))
    }

    public func forward(_ input: ForwardedInput, to origin: String) {
        metrics.inputsForwarded += 1
        send(.input(input), on: ClusterKeys.nodeChannel(origin))
    }

    public func forward(_ command: ForwardedCommand, to origin: String) {
        send(.command(command), on: ClusterKeys.nodeChannel(origin))
    }

    public func answer(_ id: Int, _ answer: Result<CommandAnswer, APIError>, to node: String) {
        send(.answer(id: id, answer), on: ClusterKeys.nodeChannel(node))
    }

    public func requestFullFrame(_ key: String, from origin: String) {
        let now = monotonicSeconds()
        guard now - (rooms[key]?.lastFullRequest ?? -.infinity) >= 0.2 else { return }
        rooms[key]?.lastFullRequest = now
        send(.fullFrameRequest(room: key), on: ClusterKeys.nodeChannel(origin))
    }

    // MARK: Events from the link

    /// Handles what the link has for the hub: call on the hub's thread when notified.
    public func handleEvents() {
        for event in link.takeEvents() {
            switch event {
            case .connected:
                if everConnected { metrics.redisReconnects += 1 }
                everConnected = true
                connected = true
                connectedAt = monotonicSeconds()
                lastRenewal = -.infinity
                lastReport = -.infinity
                // Origins hold on to their rooms at once; relays wait `reconnectGrace` (periodic).
                for room in hub.clusterRooms where room.source == .scene || room.source == .placing { claim(room.key) }
            case .disconnected(let reason):
                metrics.redisErrors += 1
                if connected { logger.error("cluster: degraded, serving alone the rooms this node is origin of", metadata: ["reason": "\(reason)"]) }
                connected = false
                for key in rooms.keys { rooms[key]?.claiming = false }
                pending.removeAll()
            case .message(let channel, let payload):
                receive(payload, on: channel)
            case .reply(let tag, let reply):
                guard let purpose = pending.removeValue(forKey: tag) else { continue }
                answer(purpose, reply)
            case .timer:
                periodic()
            }
        }
    }

    private func receive(_ payload: [UInt8], on channel: String) {
        let room = ClusterKeys.room(ofChannel: channel)
        let message: ClusterMessage
        do throws(ClusterError) {
            message = try ClusterMessage(payload, onRoomChannel: room != nil)
        } catch {
            return logger.warning("cluster: unreadable message", metadata: ["channel": "\(channel)", "error": "\(error)"])
        }
        let now = monotonicSeconds()
        switch message {
        case .frame(let sender, let text):
            guard let key = room else { return }
            followOrigin(of: key, to: sender)
            switch text.withUnsafeBytes({ hub.relayFrame($0, in: key) }) {
            case .applied:
                metrics.framesRelayed += 1
                rooms[key]?.lastFrameAt = now
            case .gap:
                metrics.frameGaps += 1
                if let origin = rooms[key]?.origin { requestFullFrame(key, from: origin) }
            case .ignored:
                break
            }
        case .event(let sender, let text):
            guard let key = room else { return }
            followOrigin(of: key, to: sender)
            text.withUnsafeBytes { hub.relayEvent($0, in: key) }
        case .input(let input):
            metrics.inputsResolved += 1
            hub.resolve(input)
        case .command(let command):
            answer(command.id, hub.perform(command), to: command.node)
        case .answer(let id, let answer):
            hub.answered(id, answer)
        case .fullFrameRequest(let key):
            hub.publishFrames(of: key, until: now + timing.publishing, full: true)
        case .delivery(let client, let text):
            text.withUnsafeBytes { hub.deliver($0, to: client) }
        }
    }

    /// A new origin's frames and events tell a relay that missed the takeover where input goes now.
    private func followOrigin(of key: String, to sender: String) {
        guard sender != node, let known = rooms[key]?.origin, known != sender else { return }
        metrics.placementChanges += 1
        rooms[key]?.origin = sender
        rooms[key]?.lastFullRequest = -.infinity
        hub.place(key, origin: sender)
    }

    private func answer(_ purpose: Pending, _ reply: RedisReply) {
        if reply.isError { metrics.redisErrors += 1 }
        switch purpose {
        case .claim(let key):
            rooms[key]?.claiming = false
            guard rooms[key] != nil, let holder = reply.text else { return }
            place(key, holder: holder)
        case .renew(let key):
            guard rooms[key] != nil, !reply.isError else { return }
            guard let holder = reply.text else { return claim(key) }  // lapsed (Redis restarted): take it again
            if holder != node { place(key, holder: holder) }
        case .reports:
            guard case .array(let items) = reply else { return }
            var fresh: [String: NodeReport] = [:]
            for pair in stride(from: 0, to: items.count - 1, by: 2) {
                guard case .string(let bytes) = items[pair + 1],
                      let value = bytes.withUnsafeBytes({ try? JSONValue.parse(bytes: $0) }),
                      let report = NodeReport(value), isFresh(report) else { continue }
                fresh[report.node] = report
            }
            reports = fresh
            shareAudience()
        case .ignored:
            break
        }
    }

    /// The lease of `key` is `holder`'s: run the room here, or relay it from there.
    private func place(_ key: String, holder: String) {
        let now = monotonicSeconds()
        let before = hub.clusterRooms.first { $0.key == key }?.source
        if holder == node {
            if before != .scene { metrics.placementChanges += 1 }
            rooms[key]?.origin = nil
            if rooms[key]?.subscribed == true {
                rooms[key]?.subscribed = false
                link.send([.unsubscribe(ClusterKeys.roomChannel(key))])
            }
            hub.place(key, origin: nil)
            hub.publishFrames(of: key, until: now + timing.publishing, full: true)
            return
        }
        if before != .origin(holder) { metrics.placementChanges += 1 }
        if rooms[key]?.subscribed == false {
            rooms[key]?.subscribed = true
            link.send([.subscribe(ClusterKeys.roomChannel(key))])
        }
        rooms[key]?.lastFrameAt = now
        rooms[key]?.lastFullRequest = -.infinity
        rooms[key]?.origin = holder
        hub.place(key, origin: holder)  // asks the origin for a full frame
    }

    /// Every `ClusterLink.period`: renews leases, takes over silent rooms, and writes and reads
    /// the nodes' reports.
    private func periodic() {
        guard connected else { return }
        let now = monotonicSeconds()
        let presence = hub.clusterRooms
        if now - lastRenewal >= timing.renewal {
            lastRenewal = now
            for room in presence where room.source == .scene {
                command(["EVAL", ClusterKeys.renewScript, "1", ClusterKeys.lease(room.key), node, Self.milliseconds(timing.lease)],
                        for: .renew(room.key))
            }
        }
        for room in presence where !(rooms[room.key]?.claiming ?? true) {
            switch room.source {
            case .placing:
                claim(room.key)
            case .origin:
                if room.clients > 0, now - connectedAt >= timing.reconnectGrace,
                   now - (rooms[room.key]?.lastFrameAt ?? now) >= timing.silence {
                    claim(room.key)
                }
            case .scene:
                break
            }
        }
        if now - lastReport >= timing.report {
            lastReport = now
            let report = NodeReport(node: node, at: Self.wallMilliseconds(), presence: presence)
            command(["HSET", ClusterKeys.nodes, node, report.json.serialized()], for: .ignored)
            command(["HGETALL", ClusterKeys.nodes], for: .reports)
        }
    }

    /// Tells the hub, for each room this node is origin of, its clients on other nodes, and
    /// keeps publishing while there are any.
    private func shareAudience() {
        let now = monotonicSeconds()
        for room in hub.clusterRooms where room.source == .scene {
            var clients = 0
            var players = 0
            for report in reports.values where report.node != node {
                for other in report.rooms where other.key == room.key {
                    clients += other.players + other.spectators
                    players += other.distinctPlayers
                }
            }
            hub.setRemoteAudience(room.key, clients: clients, players: players)
            if clients > 0 { hub.publishFrames(of: room.key, until: now + timing.publishing, full: false) }
        }
    }

    private func claim(_ key: String) {
        guard rooms[key] != nil else { return }
        rooms[key]?.claiming = true
        command(["EVAL", ClusterKeys.claimScript, "1", ClusterKeys.lease(key), node, Self.milliseconds(timing.lease)], for: .claim(key))
    }

    private func command(_ arguments: [String], for purpose: Pending) {
        let tag = nextTag
        nextTag += 1
        pending[tag] = purpose
        link.send([.command(Self.arguments(arguments), tag: tag)])
    }

    private func isFresh(_ report: NodeReport) -> Bool {
        Double(Self.wallMilliseconds() - report.at) <= timing.reportExpiry * 1000
    }

    private func send(_ message: ClusterMessage, on channel: String) {
        link.send([.publish(channel: channel, payload: message.bytes)])
    }

    private static func arguments(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }
    private static func milliseconds(_ seconds: Double) -> String { String(Int((seconds * 1000).rounded())) }
    private static func wallMilliseconds() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }
}

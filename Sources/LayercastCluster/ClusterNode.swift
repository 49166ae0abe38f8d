import LayercastEngine
import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastWire
import Logging

/// This process as one node of a cluster on Redis (docs/cluster.md): it places each room it opens
/// (a lease decides the one origin), publishes the frames and events of the rooms it is origin
/// of, relays the others' to its own clients, forwards their input to the origin, proves it is
/// alive with a heartbeat key, and takes a room over when its origin falls silent and the origin's
/// heartbeat or lease lapses. It publishes the scenes it runs and holds only the leases of their
/// rooms; a room of a scene it lacks is relayed from a node that runs it. It joins the hub and
/// the link to the parts that decide: `ClusterLeases`, `Placement`, `RelayedRooms`, `NodeReports`,
/// `ClusterScenes`, and `ClusterMessage` for what goes on the wire.
///
/// Threading: everything but `start` and `stop` runs on the hub's thread; Redis I/O runs on the
/// link's thread, which wakes the hub's through `notify` (the transport's `lws_cancel_service`).
public final class ClusterNode: HubCluster {
    /// What a command's reply is for.
    private enum Pending {
        case lease(ClusterLeases.Command)
        /// A room's audience, for its origin.
        case audience(String)
        /// Every node's report, for `GET /api/rooms`.
        case rooms(fps: Int, answer: (JSONValue) -> Void)
        /// The cluster's scenes this node lacks (`ClusterScenes.read`).
        case scenes
        /// This node's scenes written; the reply names those to write again with their fields.
        case published
        /// The live nodes that run room `key`'s scene, to ask one of them to run it.
        case placement(String)
        case ignored
    }

    public let node: String
    public let address: RedisAddress
    public let timing: ClusterTiming
    private unowned let hub: Hub
    private let link: any ClusterNodeLink
    private let clock: any MediaClock
    private let logger: Logger
    private var metrics = ClusterMetrics()
    private var connected = false
    private var everConnected = false
    /// Redis has not confirmed this node's heartbeat for the key's life (`ClusterLeases.isCutOff`),
    /// as last seen at a tick; and why the link last lost Redis.
    private var cutOff = false
    private var lostBecause = ""
    private var leases: ClusterLeases
    private var relayed: RelayedRooms
    private var reports: NodeReports
    /// The scenes this node runs, and those of the cluster it lacks.
    private let scenes: NodeScenes
    private var clusterScenes = ClusterScenes()
    private var pending: [Int: Pending] = [:]
    private var nextTag = 1

    /// A node `node` of the cluster at `address`, serving `hub`, on `clock` (the hub's transport's:
    /// the cluster tells the hub how long to publish); its heartbeat carries `keyFingerprint`
    /// (`agreeOnKey`). `notify` must make the hub's thread call `handleEvents()` soon; it is called
    /// from the link's thread.
    public convenience init(node: String, address: RedisAddress, hub: Hub, keyFingerprint: String, timing: ClusterTiming = ClusterTiming(),
                            clock: any MediaClock & Sendable = MonotonicClock(), logger: Logger, notify: @escaping @Sendable () -> Void) {
        let heartbeat = ClusterLeases(node: node, timing: timing, clock: clock).heartbeat(fingerprint: keyFingerprint)
        let link = ClusterLink(address: address, timing: timing, heartbeat: [heartbeat], clock: clock, logger: logger, notify: notify)
        self.init(node: node, address: address, hub: hub, link: link, timing: timing, clock: clock, logger: logger)
    }

    /// A node on `link` (a fake one in tests), which carries the heartbeat and wakes the hub's thread.
    init(node: String, address: RedisAddress, hub: Hub, link: any ClusterNodeLink, timing: ClusterTiming, clock: any MediaClock, logger: Logger) {
        self.node = node
        self.address = address
        self.hub = hub
        self.link = link
        self.timing = timing
        self.clock = clock
        self.logger = logger
        leases = ClusterLeases(node: node, timing: timing, clock: clock)
        relayed = RelayedRooms(timing: timing, clock: clock)
        reports = NodeReports(node: node, timing: timing, clock: clock)
        scenes = NodeScenes(hub.configuration.scenes)
    }

    /// Starts the link to Redis and listens on this node's channel.
    public func start() {
        link.send([.subscribe(ClusterKeys.nodeChannel(node))])
        link.start()
    }

    /// Releases this node's leases, heartbeat and reports, then stops the link (the server has stopped).
    public func stop() {
        let presence = hub.clusterRooms
        var requests: [ClusterLink.Request] = presence.filter { $0.source == .scene }.map { room in
            .command(Self.arguments(ClusterLeases.Command.release(room.key).arguments(node: node, timing: timing)), tag: 0)
        }
        requests += reports.stopping(presence).map { .command(Self.arguments($0), tag: 0) }
        requests += scenes.leaving(node: node).map { .command(Self.arguments($0), tag: 0) }
        requests.append(.command(Self.arguments(["DEL", ClusterKeys.heartbeat(node)]), tag: 0))
        link.send(requests)
        link.stop()
    }

    // MARK: HubCluster

    /// Half the silence after which a relay tries to take a room over (`ClusterTiming.silence`).
    public var relayKeepalive: Double { timing.silence / 2 }

    public var health: JSONValue {
        var document: JSONObject = ["status": "ok", "node": .string(node), "cluster": .string(address.description)]
        if let reason = degradedReason {
            document["status"] = "degraded"
            document["reason"] = .string(reason)
        }
        return .object(document)
    }

    /// Joins are refused once the node is cut off (a heartbeat's life without a confirmed beat),
    /// not at the first sign of trouble: a join in the moment before the link first connects is
    /// placed once it has.
    public var joinRefusal: String? {
        guard leases.isCutOff(beatConfirmedAt: link.beatConfirmedAt) else { return nil }
        return "this node cannot reach the cluster's Redis, so it serves no room now; reconnect to reach another node"
    }

    /// Why this node is degraded (`/healthz`'s `reason`); nil while it holds Redis.
    private var degradedReason: String? {
        let since = clock.now - link.beatConfirmedAt
        let lost = lostBecause.isEmpty ? "" : " (\(lostBecause))"
        if leases.isCutOff(beatConfirmedAt: link.beatConfirmedAt) {
            return "redis: no heartbeat confirmed for \(Int(since * 1000)) ms\(lost); this node serves no room of the cluster and takes no join until it reconnects"
        }
        return connected ? nil : "redis: unreachable\(lost); reconnecting"
    }

    /// Steps down from the rooms this node may no longer hold: every room once Redis has not
    /// confirmed its heartbeat for the key's life (another node may hold them, and relayed rooms
    /// get no frames), and each room it is origin of whose lease went unconfirmed for its length.
    public func ticked() {
        let isCutOff = leases.isCutOff(beatConfirmedAt: link.beatConfirmedAt)
        if isCutOff != cutOff {
            cutOff = isCutOff
            if isCutOff { logger.error("cluster: cut off from Redis; stepping down from every room and refusing joins until it answers") }
            else { logger.notice("cluster: Redis confirms the heartbeat again; taking joins") }
        }
        if isCutOff {
            for key in hub.roomKeys { hub.stepDown(key, reason: .redis) }
        } else {
            for key in leases.expiredLeases() where hub.source(of: key) == .scene { hub.stepDown(key, reason: .lease) }
        }
    }

    public var metricsText: String {
        let rooms = hub.clusterRooms
        let origin = rooms.filter { $0.source == .scene }.count
        let relayed = rooms.filter { if case .origin = $0.source { true } else { false } }.count
        return metrics.render(originRooms: origin, relayedRooms: relayed, connected: connected)
    }

    public func roomsDocument(fps: Int, answer: @escaping (JSONValue) -> Void) {
        guard connected else { return answer(ClusterRooms.document(reports.own(hub.clusterRooms), fps: fps)) }
        command(["HGETALL", ClusterKeys.nodes], for: .rooms(fps: fps, answer: answer))
    }

    public func opened(_ key: String) {
        leases.opened(key)
        if connected { acquire(key) }
    }

    public func closed(_ key: String, origin: Bool) {
        leases.closed(key)
        if connected { command(reports.closed(key), for: .ignored) }
        if relayed.stop(key) { link.send([.unsubscribe(ClusterKeys.roomChannel(key))]) }
        if origin { command(.release(key)) }
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
        guard relayed.mayRequestFullFrame(key) else { return }
        send(.fullFrameRequest(room: key), on: ClusterKeys.nodeChannel(origin))
    }

    public func sceneFields(of id: String) -> JSONObject? { clusterScenes.fields(of: id) }

    // MARK: Events from the link

    /// Handles what the link has for the hub: call on the hub's thread when notified.
    public func handleEvents() {
        for event in link.takeEvents() {
            switch event {
            case .connected:
                if everConnected { metrics.redisReconnects += 1 }
                everConnected = true
                connected = true
                lostBecause = ""
                leases.connected()
                reports.connected()
                // The scenes' fields (kilobytes) go with the first write only; later ones refresh.
                command(scenes.publication(node: node, expiry: expiry, withFields: Set(scenes.fields.keys)), for: .published)
                command(clusterScenes.reading(own: scenes, timing: timing), for: .scenes)
                // The link has sent the heartbeat first. Origins hold on to their rooms at
                // once; relays wait `reconnectGrace` (periodic).
                for room in hub.clusterRooms where room.source == .scene || room.source == .placing { acquire(room.key) }
            case .disconnected(let reason):
                metrics.redisErrors += 1
                if connected { logger.error("cluster: lost Redis; its rooms are stepped down unless it answers within the heartbeat's life", metadata: ["reason": "\(reason)"]) }
                connected = false
                lostBecause = reason
                leases.disconnected()
                let presence = hub.clusterRooms
                for case .rooms(let fps, let answer) in pending.values { answer(ClusterRooms.document(reports.own(presence), fps: fps)) }
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
        switch message {
        case .frame(let sender, let text):
            guard let key = room else { return }
            follow(key, sender)
            switch text.withUnsafeBytes({ hub.relayFrame($0, in: key) }) {
            case .applied:
                metrics.framesRelayed += 1
                leases.heard(from: key)
            case .gap:
                metrics.frameGaps += 1
                if let origin = relayed.origin(of: key) { requestFullFrame(key, from: origin) }
            case .ignored:
                break
            }
        case .event(let sender, let text):
            guard let key = room else { return }
            follow(key, sender)
            text.withUnsafeBytes { hub.relayEvent($0, in: key) }
        case .input(let input):
            metrics.inputsResolved += 1
            hub.resolve(input)
        case .command(let command):
            hub.perform(command) { [self] in answer(command.id, $0, to: command.node) }
        case .answer(let id, let answer):
            hub.answered(id, answer)
        case .fullFrameRequest(let key):
            hub.publishFrames(of: key, until: clock.now + timing.publishing, full: true)
        case .delivery(let client, let text):
            text.withUnsafeBytes { hub.deliver($0, to: client) }
        case .placementRequest(let key, let frame, let time):
            hub.openForPlacement(key, after: frame, time: time)
        }
    }

    /// A room's frame or event came from `sender`: a relay that missed a takeover learns where
    /// input goes now.
    private func follow(_ key: String, _ sender: String) {
        guard case .relayed(let origin)? = Placement.following(sender, relayedFrom: relayed.origin(of: key), node: node) else { return }
        metrics.placementChanges += 1
        _ = relayed.relay(key, from: origin)
        hub.place(key, origin: origin)
    }

    private func answer(_ purpose: Pending, _ reply: RedisReply) {
        if reply.isError { metrics.redisErrors += 1 }
        switch purpose {
        case .lease(let command):
            switch leases.answered(command, reply) {
            case .place(let placement)?: place(command.room, placement)
            case .acquireAgain?: acquire(command.room)
            case .requestPlacement?: requestPlacement(command.room)
            case nil: break
            }
        case .scenes:
            clusterScenes.read(reply)
        case .published:
            guard case .array(let items) = reply, !items.isEmpty else { break }
            command(scenes.publication(node: node, expiry: expiry, withFields: Set(items.compactMap(\.text))), for: .ignored)
        case .placement(let key):
            let running = ClusterScenes.runners(reply)
            guard hub.clusterRooms.contains(where: { $0.key == key }),
                  let target = ClusterScenes.placementTarget(for: key, among: running, besides: node, avoiding: relayed.origin(of: key)) else {
                logger.debug("cluster: no live node runs the scene of a room here", metadata: ["room": "\(key)"])
                break
            }
            let newest = hub.newestFrame(of: key)
            send(.placementRequest(room: key, frame: newest?.number ?? -1, time: newest?.time ?? 0), on: ClusterKeys.nodeChannel(target))
        case .audience(let key):
            // An error reply (Redis away) leaves the room's audience as it was.
            guard !reply.isError, hub.clusterRooms.contains(where: { $0.key == key && $0.source == .scene }) else { break }
            let audience = reports.audience(reply, of: key)
            if let sweep = audience.sweep { command(sweep, for: .ignored) }
            share(audience, of: key)
        case .rooms(let fps, let answer):
            let presence = hub.clusterRooms
            let all = reports.all(reply, presence)
            for room in presence where room.source == .scene && !reply.isError { share(reports.audience(of: room.key, in: all), of: room.key) }
            answer(ClusterRooms.document(all, fps: fps))
        case .ignored:
            break
        }
    }

    /// Room `key` goes to `placement`: run it here, or relay it from its origin.
    private func place(_ key: String, _ placement: Placement) {
        let before = hub.clusterRooms.first { $0.key == key }?.source
        switch placement {
        case .here:
            if before != .scene { metrics.placementChanges += 1 }
            if relayed.stop(key) { link.send([.unsubscribe(ClusterKeys.roomChannel(key))]) }
            hub.place(key, origin: nil)
            hub.publishFrames(of: key, until: clock.now + timing.publishing, full: true)
        case .relayed(let holder):
            if before != .origin(holder) { metrics.placementChanges += 1 }
            if relayed.relay(key, from: holder) { link.send([.subscribe(ClusterKeys.roomChannel(key))]) }
            hub.place(key, origin: holder)  // asks the origin for a full frame
        }
    }

    /// Every `timing.period`: renews leases (from the hub's thread, so a hung hub loses its
    /// rooms when their leases expire), takes over silent rooms, and with the reports writes this
    /// node's scenes and reads the cluster's. (The link beats by itself.)
    private func periodic() {
        guard connected else { return }
        let presence = hub.clusterRooms
        for renewal in leases.renewals(of: presence) { command(renewal) }
        for room in presence where leases.shouldAcquire(room) { acquire(room.key) }
        if let due = reports.due(presence) {
            for report in due {
                switch report {
                case .write(let arguments): command(arguments, for: .ignored)
                case .readAudience(let key): command(report.arguments, for: .audience(key))
                }
            }
            command(scenes.publication(node: node, expiry: expiry, withFields: []), for: .published)
            command(clusterScenes.reading(own: scenes, timing: timing), for: .scenes)
        }
    }

    /// Tells the hub the clients room `key`, which this node is origin of, has on other nodes,
    /// and keeps publishing while there are any.
    private func share(_ audience: NodeReports.Audience, of key: String) {
        hub.setRemoteAudience(key, clients: audience.clients, players: audience.players)
        if audience.clients > 0 { hub.publishFrames(of: key, until: clock.now + timing.publishing, full: false) }
    }

    /// Acquires room `key`'s lease when this node runs its scene; else looks for its origin
    /// (a node never holds the lease of a room whose scene it lacks).
    private func acquire(_ key: String) {
        let runsScene = key.firstIndex(of: "/").map { scenes.fields[String(key[..<$0])] != nil } ?? false
        if let acquisition = runsScene ? leases.acquire(key) : leases.locate(key) { command(acquisition) }
    }

    /// No live node holds room `key`, whose scene this node lacks: reads the live nodes that run
    /// the scene, then asks one (rather not the origin it last relayed the room from, which is
    /// gone) to run it (`answer`, `.placement`).
    private func requestPlacement(_ key: String) {
        if let reading = ClusterScenes.runnersReading(for: key, timing: timing) { command(reading, for: .placement(key)) }
    }

    /// `ClusterTiming.reportExpiry` in ms: how long the scenes' keys live after a write.
    private var expiry: String { String(Int((timing.reportExpiry * 1000).rounded())) }

    private func command(_ lease: ClusterLeases.Command) {
        command(lease.arguments(node: node, timing: timing), for: .lease(lease))
    }

    private func command(_ arguments: [String], for purpose: Pending) {
        let tag = nextTag
        nextTag += 1
        pending[tag] = purpose
        link.send([.command(Self.arguments(arguments), tag: tag)])
    }

    private func send(_ message: ClusterMessage, on channel: String) {
        link.send([.publish(channel: channel, payload: message.bytes)])
    }

    private static func arguments(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }
}

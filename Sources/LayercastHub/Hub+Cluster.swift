import Foundation
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastWire

/// A room as this node holds it, for the cluster's reports (`Hub.clusterRooms`).
public struct RoomPresence: Equatable, Sendable {
    /// `scene/name`.
    public var key: String
    public var source: RoomSource
    /// Clients on this node, players among them, and distinct player ids.
    public var clients: Int
    public var players: Int
    public var distinctPlayers: Int
    public var frame: Int
    public var uptime: Double
}

// The cluster's calls into the hub (docs/cluster.md), on the hub's thread.
extension Hub {
    /// The rooms open on this node.
    public var clusterRooms: [RoomPresence] {
        let now = clock.now
        return rooms.values.map { room in
            let players = room.clients.filter { $0.role == .player }
            return RoomPresence(key: room.key, source: room.source, clients: room.clients.count, players: players.count,
                                distinctPlayers: Set(players.compactMap { $0.player?.id }).count, frame: room.frameNumber,
                                uptime: now - room.startedAt)
        }
    }

    /// The cluster found room `key`'s origin: `origin`, or this node when nil. A room this node
    /// becomes the origin of takes up what its scene persisted (`SceneController.tookOver`: the round
    /// the dead origin was running goes on); a room it loses to another node records what that
    /// interrupts. A takeover that waits on the ledger holds only its own room (`takeOver`).
    public func place(_ key: String, origin: String?) {
        guard let room = rooms[key] else { return }
        let before = room.source
        guard origin.map({ before != .origin($0) }) ?? (before != .scene && room.controller != nil) else { return }
        let now = clock.now
        if origin != nil, before == .scene { room.controller?.stopping() }
        room.place(origin: origin, at: now)
        room.takeover = nil
        logger.notice("room placed", metadata: ["room": "\(key)", "origin": "\(origin ?? "this node")", "was": "\(before)"])
        if origin == nil {
            room.takeover = PendingTakeover(placing: before == .placing)
            return takeOver(room)
        }
        if let cluster, let origin {
            cluster.requestFullFrame(key, from: origin)
            for client in room.clients { cluster.forward(joined(client, in: room), to: origin) }
        }
        sendWaitingCommands(of: room)
    }

    /// Asks `room`'s controller to take up what its scene persisted, for the room's pending
    /// takeover. Until the first answer the room waits (`PendingTakeover.waiting`); an answer that
    /// failed (the ledger failed or was late) lets the room run without it, and it is asked again
    /// after a backoff (`retryTakeover`) until it succeeds (docs/cluster.md, on a round whose origin
    /// died). An answer for an earlier attempt, or for a room given up since, is dropped.
    func takeOver(_ room: Room) {
        guard let controller = room.controller, let attempt = room.takeover?.attempt else { return }
        controller.tookOver(in: room) { [weak self, weak room] takeover in
            guard let self, let room, rooms[room.key] === room, room.source == .scene, room.takeover?.attempt == attempt else { return }
            tookOver(takeover, in: room, by: controller)
        }
    }

    /// Asks again the takeovers whose retry is due (each tick).
    func retryTakeover(of room: Room, at now: Double) {
        guard room.takeover?.isDue(at: now) == true else { return }
        room.takeover?.ask()
        takeOver(room)
    }

    /// The controller's answer to the room's takeover: a failure is asked again later; what was
    /// taken up is counted and told. The first answer lets the room go on: its first frame (a
    /// room that was being placed), what its clients joined to, and the commands that waited.
    private func tookOver(_ takeover: Takeover, in room: Room, by controller: any SceneController) {
        guard var pending = room.takeover else { return }
        let first = pending.waiting
        let now = clock.now
        takeover.outcomes.forEach { metrics.countTakeover($0, scene: room.sceneID) }
        if let failure = takeover.failure {
            pending.failed(at: now)
            room.takeover = pending
            logger.error("takeover not taken up; the room runs without it until it is", metadata: [
                "room": "\(room.key)", "attempt": "\(pending.attempt)", "retry_in_s": "\(pending.retryAt - now)", "error": "\(failure)",
            ])
        } else {
            room.takeover = nil
            broadcast(takeover.events, in: room, tapArrival: nil)
        }
        guard first else { return }
        if pending.placing { room.tick(at: now) }
        for client in room.clients {
            for event in controller.joined(client: client.name, in: room) {
                enqueue(encoded(ServerMessage.event(event)), to: client, tapArrival: nil)
            }
        }
        sendWaitingCommands(of: room)
    }

    /// Where room `key`'s frames come from here; nil when it is not open.
    public func source(of key: String) -> RoomSource? { rooms[key]?.source }

    /// The keys of the rooms open on this node.
    public var roomKeys: [String] { Array(rooms.keys) }

    /// This node no longer holds room `key` (`reason`): it stops serving it at once, and closes its
    /// clients here with 1012 and `stepped down: REASON` so that they reconnect, through the proxy,
    /// to a node that serves the room (docs/cluster.md, "A cut-off node steps down"). The round it
    /// ran is not ended: it is the room's next origin's, which claims and rebuilds it.
    public func stepDown(_ key: String, reason: StepDownReason) {
        guard let room = rooms.removeValue(forKey: key) else { return }
        metrics.stepDowns[reason, default: 0] += 1
        logger.warning("room stepped down", metadata: ["room": "\(key)", "reason": "\(reason.rawValue)", "clients": "\(room.clients.count)"])
        for client in room.clients {
            client.room = nil
            client.closing = (CloseCode.serviceRestart, "stepped down: \(reason.rawValue)")
            transport.wake(client.id)
        }
        room.clients.removeAll()
        cluster?.closed(key, origin: room.source == .scene)
    }

    /// A tap's commit in `room` failed with `failure` (`TapResult.failure`, a `LedgerError`'s text):
    /// a `fenced` refusal means another node claimed the room's round, so this node steps down
    /// from the room.
    func commitFailed(_ failure: String, in room: Room) {
        guard cluster != nil, failure.hasPrefix(LedgerError.Code.fenced.rawValue + ":") else { return }
        stepDown(room.key, reason: .fenced)
    }

    /// The room `name` of scene `sceneID`, which this node lacks, created (to be placed on a node
    /// that runs the scene) when missing; `fields` are what that node published of the scene.
    func relayedRoom(sceneID: String, fields: JSONObject, name: String, now: Double) -> Room {
        let key = "\(sceneID)/\(name)"
        if let room = rooms[key] { return room }
        let room = Room(name: name, sceneID: sceneID, sceneFields: fields, now: now, transport: transport, clock: clock)
        rooms[key] = room
        logger.info("room opened", metadata: ["scene": "\(sceneID)", "room": "\(name)", "relayed": "this node lacks the scene"])
        cluster?.opened(key)
        return room
    }

    /// Another node with clients in room `key` (`scene/name`) lacks its scene and asks this node
    /// to run it: the room is opened here (with no clients of its own yet) and placed as any other.
    /// Its frames go on from `frame` at media time `time`, the newest that node relayed (none when
    /// `frame` is negative), as a relay's do when it takes a room over. Nothing happens when this
    /// node lacks the scene too, the name is not a room's, or this node runs its limit of rooms.
    public func openForPlacement(_ key: String, after frame: Int, time: Double) {
        guard rooms[key] == nil, let slash = key.firstIndex(of: "/"),
              let scene = configuration.scenes.scene(id: String(key[..<slash])) else { return }
        let name = String(key[key.index(after: slash)...])
        guard NameRule.isValid(name), rooms.count < configuration.maxRooms else { return }
        let room = room(scene: scene, name: name, now: clock.now)  // placed later: the lease's answer comes on this thread
        if frame >= 0 { room.goOn(after: frame, time: time) }
    }

    /// The number and media time of room `key`'s newest frame here; nil when it has none.
    public func newestFrame(of key: String) -> (number: Int, time: Double)? {
        guard let room = rooms[key], room.frameNumber >= 0 else { return nil }
        return (room.frameNumber, room.frameTime)
    }

    /// A frame of relayed room `key` from its origin, as JSON text; its clients are woken when
    /// it applies.
    public func relayFrame(_ text: UnsafeRawBufferPointer, in key: String) -> RelayOutcome {
        guard let room = rooms[key] else { return .ignored }
        let outcome = room.relay(text, headroom: transport.headroom)
        if outcome == .applied { room.clients.forEach { transport.wake($0.id) } }
        return outcome
    }

    /// A room event of relayed room `key` from its origin (a whole `event` message), for every
    /// client of the room here.
    public func relayEvent(_ text: UnsafeRawBufferPointer, in key: String) {
        guard let room = rooms[key], case .origin = room.source, !room.clients.isEmpty else { return }
        let message = EncodedMessage(copying: text, headroom: transport.headroom)
        room.clients.forEach { enqueue(message, to: $0, tapArrival: nil) }
    }

    /// A message from a room's origin for one client here, by protocol id (`c…`).
    public func deliver(_ text: UnsafeRawBufferPointer, to name: String) {
        guard name.hasPrefix("c"), let number = Int(name.dropFirst()), let client = clients[ClientID(number)] else { return }
        enqueue(EncodedMessage(copying: text, headroom: transport.headroom), to: client, tapArrival: nil)
    }

    /// Another node relays room `key`, this node's: publish its frames until `until` (monotonic),
    /// the next in full when `full`.
    public func publishFrames(of key: String, until: Double, full: Bool) {
        guard let room = rooms[key], room.source == .scene else { return }
        room.publishUntil = max(room.publishUntil, until)
        if full { room.publishFull = true }
    }

    /// The clients and distinct players room `key` has on other nodes (on its origin).
    public func setRemoteAudience(_ key: String, clients: Int, players: Int) {
        guard let room = rooms[key] else { return }
        room.remoteClients = clients
        room.remotePlayers = players
    }

    /// Input forwarded from another node to this origin, resolved as if it were local; answers
    /// go back to the client's node, room events to everyone.
    public func resolve(_ input: ForwardedInput) {
        guard let room = rooms[input.room], room.source == .scene, let controller = room.controller else { return }
        if room.remoteClientNodes[input.client] == nil, room.remoteClientNodes.count >= 100_000 { room.remoteClientNodes.removeAll() }
        room.remoteClientNodes[input.client] = input.node
        let now = clock.now
        switch input.action {
        case .joined:
            broadcast(controller.joined(client: input.client, in: room), in: room, tapArrival: nil)
        case .tap(let x, let y, let viewTime, let id):
            guard let player = input.player else { return }
            let tapper = Tapper(client: input.client, player: player, name: input.name, id: id)
            if let error = tap(x: x, y: y, viewTime: viewTime, by: tapper, local: nil, in: room, at: now) {
                deliverError(error, to: input.client, in: room)
            }
        case .drag(let phase, let x, let y, let viewTime):
            guard let phase = DragPhase(rawValue: phase), !room.awaitsTakeover else { return }
            broadcast(room.drag(phase, x: x, y: y, viewTime: viewTime, by: input.client, at: now), in: room, tapArrival: nil)
        }
    }

    /// Publishes the frame `room` (this node's) just made, while other nodes relay it.
    func publishFrame(of room: Room, at now: Double) {
        guard let cluster, room.publishUntil > now else { return }
        // A tick that changed nothing goes to the other nodes only as a keepalive (`sparse`), often
        // enough that a relay never takes the room's silence for its origin's death.
        if !room.publishFull, room.isStill, clock.now - room.publishedAt < cluster.relayKeepalive { return }
        let message = room.publishFull ? room.fullFrame(&metrics) : (room.deltaFrame(&metrics) ?? room.fullFrame(&metrics))
        room.publishFull = false
        room.publishedAt = now
        cluster.publish(frame: message, in: room.key)
    }

    /// The join of `client` in relayed `room`, for its origin.
    func joined(_ client: Client, in room: Room) -> ForwardedInput {
        ForwardedInput(room: room.key, node: cluster?.node ?? "", client: client.name, player: client.player?.id,
                       name: client.player?.name, action: .joined)
    }

    /// Sends `error` to `client`, a client of another node in `room`, and counts it.
    func deliverError(_ error: ProtocolError, to client: String, in room: Room) {
        metrics.rejected[error.code, default: 0] += 1
        guard let cluster, let node = room.remoteClientNodes[client] else { return }
        cluster.deliver(encoded(ServerMessage.error(error)), to: client, on: node)
    }
}

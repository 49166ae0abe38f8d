import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastWire

extension Hub {
    /// `GET /api/scenes`: the catalogue, each scene with its words (`SceneWords`).
    public func scenesDocument() -> JSONValue {
        let scenes = configuration.scenes.scenes.map { type -> JSONValue in
            let info = type.info
            var object: JSONObject = ["id": .string(info.id), "title": .string(info.title),
                                      "size": ["width": .number(info.size.width), "height": .number(info.size.height)],
                                      "interactions": .array(info.interactions.map(JSONValue.string))]
            for (key, value) in SceneWords.fields(of: info) { object[key] = value }
            return .object(object)
        }
        return ["scenes": .array(scenes)]
    }

    /// `GET /api/rooms` through `answer`, once: the open rooms, their clients, frame and uptime;
    /// in a cluster, every node's rooms with their origin and clients per node (after a Redis
    /// round trip, on the hub's thread).
    public func roomsDocument(answer: @escaping (JSONValue) -> Void) {
        if let cluster { return cluster.roomsDocument(fps: configuration.fps, answer: answer) }
        answer(localRoomsDocument())
    }

    /// The rooms open on this node alone.
    func localRoomsDocument() -> JSONValue {
        let now = clock.now
        let list = rooms.values.sorted { ($0.sceneID, $0.name) < ($1.sceneID, $1.name) }.map { room -> JSONValue in
            let players = room.clients.filter { $0.role == .player }.count
            return ["scene": .string(room.sceneID), "room": .string(room.name),
                    "clients": ["player": .number(Double(players)), "spectator": .number(Double(room.clients.count - players))],
                    "fps": .number(Double(configuration.fps)), "uptime": .number(((now - room.startedAt) * 1000).rounded() / 1000),
                    "frame": .number(Double(room.frameNumber))]
        }
        return ["rooms": .array(list)]
    }

    /// `GET /metrics`: the Prometheus text, the transport's families among the hub's, the
    /// cluster's counters after them.
    public func metricsText() -> String {
        let inRooms = clients.values.filter { $0.room != nil }
        let players = inRooms.filter { $0.role == .player }.count
        return metrics.render(rooms: rooms.count, players: players, spectators: inRooms.count - players,
                              refusedAnimations: CALayer.unsupportedAnimations.count, transport: transport.writeMetrics(into:))
            + metrics.renderLedger(pending: ledger.pending) + (cluster?.metricsText ?? "")
    }

    /// `GET /healthz`, answered at once: `status` (`ok`, or `degraded` while a cluster node has lost
    /// Redis or the ledger is unreachable or timing out, with `ledger` saying why) and the node's id,
    /// with the cluster's address when there is one.
    public func healthDocument() -> JSONValue {
        let document = cluster?.health ?? ["status": "ok", "node": .string(configuration.node)]
        guard let reason = ledger.degradedReason, case .object(var fields) = document else { return document }
        fields["status"] = "degraded"
        fields["ledger"] = .string(reason)
        return .object(fields)
    }
}

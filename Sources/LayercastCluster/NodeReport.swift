import LayercastHub
import LayercastJSON

/// What a node writes each second to `ClusterKeys.nodes`, for `GET /api/rooms`: when, and each of
/// its rooms with its origin and its clients there.
struct NodeReport: Equatable {
    struct Room: Equatable {
        /// `scene/name`.
        var key: String
        /// The origin's node id; nil while the room is being placed.
        var origin: String?
        var players: Int
        var spectators: Int
        /// Distinct player ids among `players`.
        var distinctPlayers: Int
        var frame: Int
        var uptime: Double
    }

    var node: String
    /// Wall-clock milliseconds when written.
    var at: Int
    var rooms: [Room]

    init(node: String, at: Int, rooms: [Room]) {
        self.node = node
        self.at = at
        self.rooms = rooms
    }

    /// This node's report of the hub's rooms.
    init(node: String, at: Int, presence: [RoomPresence]) {
        self.init(node: node, at: at, rooms: presence.map { room in
            let origin: String? = switch room.source {
            case .scene: node
            case .origin(let other): other
            case .placing: nil
            }
            return Room(key: room.key, origin: origin, players: room.players, spectators: room.clients - room.players,
                        distinctPlayers: room.distinctPlayers, frame: room.frame, uptime: room.uptime)
        })
    }

    var json: JSONValue {
        ["node": .string(node), "at": .number(Double(at)), "rooms": .array(rooms.map { room in
            ["key": .string(room.key), "origin": room.origin.map(JSONValue.string) ?? .null,
             "player": .number(Double(room.players)), "spectator": .number(Double(room.spectators)),
             "distinct": .number(Double(room.distinctPlayers)), "frame": .number(Double(room.frame)),
             "uptime": .number((room.uptime * 1000).rounded() / 1000)]
        })]
    }

    /// Reads a report as `json` writes it; nil when it is not one.
    init?(_ value: JSONValue) {
        guard case .object(let object) = value, case .string(let node)? = object["node"],
              case .number(let at)? = object["at"], case .array(let rooms)? = object["rooms"] else { return nil }
        var parsed: [Room] = []
        for room in rooms {
            guard case .object(let r) = room, case .string(let key)? = r["key"] else { return nil }
            let origin: String? = if case .string(let o)? = r["origin"] { o } else { nil }
            func int(_ name: String) -> Int { if case .number(let n)? = r[name], n.isFinite, abs(n) < 1e15 { Int(n) } else { 0 } }
            let uptime: Double = if case .number(let u)? = r["uptime"], u.isFinite { u } else { 0 }
            parsed.append(Room(key: key, origin: origin, players: int("player"), spectators: int("spectator"),
                               distinctPlayers: int("distinct"), frame: int("frame"), uptime: uptime))
        }
        self.init(node: node, at: at.isFinite ? Int(at) : 0, rooms: parsed)
    }
}

import LayercastJSON

/// `GET /api/rooms` in a cluster: every room any node reports, with its origin, its clients over
/// all nodes and per node; the frame and uptime are the origin's (docs/cluster.md). Reports are
/// up to a second old, except the asking node's own.
enum ClusterRooms {
    static func document(_ reports: [NodeReport], fps: Int) -> JSONValue {
        struct Entry {
            var origin: String?
            var players = 0
            var spectators = 0
            var frame = -1
            var uptime = 0.0
            var nodes = JSONObject()
        }
        var entries: [String: Entry] = [:]
        // Oldest first, so that the newest view of a room's origin wins: a node that died as
        // origin reports so until its report expires, but its successor's report is newer.
        for report in reports.sorted(by: { ($0.at, $0.node) < ($1.at, $1.node) }) {
            for room in report.rooms {
                var entry = entries[room.key] ?? Entry()
                if room.origin != nil { entry.origin = room.origin }
                if room.origin == report.node || entry.frame < 0 {
                    entry.frame = room.frame
                    entry.uptime = room.uptime
                }
                entry.players += room.players
                entry.spectators += room.spectators
                entry.nodes[report.node] = ["player": .number(Double(room.players)), "spectator": .number(Double(room.spectators))]
                entries[room.key] = entry
            }
        }
        let list = entries.sorted { $0.key < $1.key }.map { key, entry -> JSONValue in
            let slash = key.firstIndex(of: "/") ?? key.endIndex
            return ["scene": .string(String(key[..<slash])), "room": .string(String(key[key.index(after: slash)...])),
                    "clients": ["player": .number(Double(entry.players)), "spectator": .number(Double(entry.spectators))],
                    "fps": .number(Double(fps)), "uptime": .number((entry.uptime * 1000).rounded() / 1000),
                    "frame": .number(Double(entry.frame)), "origin": entry.origin.map(JSONValue.string) ?? .null,
                    "nodes": .object(entry.nodes)]
        }
        return ["rooms": .array(list)]
    }
}

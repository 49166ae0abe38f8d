import Foundation
import LayercastEngine
import LayercastHub
import LayercastJSON

/// What the nodes tell each other and the operator of their rooms (docs/cluster.md, "Node
/// reports"). Every `timing.report` seconds a node writes its report (all its rooms) to
/// `ClusterKeys.nodes`, read only when an operator asks (`GET /api/rooms`), and its clients in
/// each of its rooms to the room's `ClusterKeys.audience`, read by that room's origin alone. So a
/// node's Redis traffic grows with its own rooms, not with the number of nodes. Entries older
/// than `timing.reportExpiry` are from nodes that are gone: ignored, and deleted.
struct NodeReports {
    /// A Redis command of the reports.
    enum Command: Equatable {
        /// A write; its reply says nothing the node needs.
        case write([String])
        /// `HGETALL` of room `room`'s audience hash (this node is its origin): the reply goes to
        /// `audience(_:of:)`.
        case readAudience(room: String)

        /// The command's arguments.
        var arguments: [String] {
            switch self {
            case .write(let arguments): arguments
            case .readAudience(let room): ["HGETALL", ClusterKeys.audience(room)]
            }
        }
    }

    /// A room's clients on the other nodes.
    struct Audience: Equatable {
        var clients = 0
        /// Distinct players, summed over the nodes.
        var players = 0
        /// The command that deletes the entries of nodes gone; nil when there are none.
        var sweep: [String]?
    }

    let node: String
    let timing: ClusterTiming
    private let clock: any MediaClock
    /// Wall-clock milliseconds: entries are written on other machines.
    private let wall: () -> Int
    private var lastReport = -Double.infinity

    init(node: String, timing: ClusterTiming, clock: any MediaClock, wall: @escaping () -> Int = NodeReports.wallMilliseconds) {
        self.node = node
        self.timing = timing
        self.clock = clock
        self.wall = wall
    }

    /// Connected to Redis (again): report at once.
    mutating func connected() { lastReport = -.infinity }

    /// The commands due now, if any: this node's clients in each room of `presence`, its report
    /// (after them, so that whoever reads the report finds the audience entries at least as new),
    /// then the audience of each room it is origin of.
    mutating func due(_ presence: [RoomPresence]) -> [Command]? {
        guard clock.now - lastReport >= timing.report else { return nil }
        lastReport = clock.now
        let at = wall()
        let expiry = String(Int((timing.reportExpiry * 1000).rounded()))
        var commands: [Command] = []
        for room in presence.sorted(by: { $0.key < $1.key }) {
            let key = ClusterKeys.audience(room.key)
            commands.append(.write(["HSET", key, node, "\(room.clients) \(room.distinctPlayers) \(at)"]))
            commands.append(.write(["PEXPIRE", key, expiry]))
        }
        commands.append(.write(["EVAL", ClusterKeys.reportScript, "2", ClusterKeys.nodes, ClusterKeys.nodesWritten, node,
                                NodeReport(node: node, at: at, presence: presence).json.serialized(), expiry]))
        for room in presence.sorted(by: { $0.key < $1.key }) where room.source == .scene {
            commands.append(.readAudience(room: room.key))
        }
        return commands
    }

    /// Room `room`'s clients on other nodes, from an `HGETALL` of its audience hash: the fresh
    /// entries of the others summed, the stale ones to delete.
    func audience(_ reply: RedisReply, of room: String) -> Audience {
        var audience = Audience()
        var stale: [String] = []
        let now = wall()
        for (other, value) in Self.pairs(reply) where other != node {
            let fields = value.split(separator: " ").compactMap { Int($0) }
            guard fields.count == 3, isFresh(fields[2], now: now) else {
                stale.append(other)
                continue
            }
            audience.clients += fields[0]
            audience.players += fields[1]
        }
        if !stale.isEmpty { audience.sweep = ["HDEL", ClusterKeys.audience(room)] + stale.sorted() }
        return audience
    }

    /// Room `key`'s clients on other nodes as `reports` (`all`) say: what `GET /api/rooms` shows
    /// of a room this node is origin of is what the node counts from then on.
    func audience(of key: String, in reports: [NodeReport]) -> Audience {
        var audience = Audience()
        for report in reports where report.node != node {
            for room in report.rooms where room.key == key {
                audience.clients += room.players + room.spectators
                audience.players += room.distinctPlayers
            }
        }
        return audience
    }

    /// The fresh reports of an `HGETALL` of `ClusterKeys.nodes` but this node's, and this node's
    /// own of `presence` now.
    func all(_ reply: RedisReply, _ presence: [RoomPresence]) -> [NodeReport] {
        let now = wall()
        var all: [NodeReport] = Self.pairs(reply).compactMap { _, value in
            guard let report = try? NodeReport(JSONValue.parse(value)), report.node != node, isFresh(report.at, now: now) else { return nil }
            return report
        }
        all.append(NodeReport(node: node, at: now, presence: presence))
        return all
    }

    /// This node's own report of `presence` alone (Redis is away).
    func own(_ presence: [RoomPresence]) -> [NodeReport] { [NodeReport(node: node, at: wall(), presence: presence)] }

    /// This node left room `room`: its entry in the room's audience goes.
    func closed(_ room: String) -> [String] { ["HDEL", ClusterKeys.audience(room), node] }

    /// This node stops: its report and its entries in the audience of `presence`'s rooms go.
    func stopping(_ presence: [RoomPresence]) -> [[String]] {
        [["HDEL", ClusterKeys.nodes, node], ["ZREM", ClusterKeys.nodesWritten, node]] + presence.map { closed($0.key) }
    }

    private func isFresh(_ at: Int, now: Int) -> Bool { Double(now - at) <= timing.reportExpiry * 1000 }

    /// The field–value pairs of an `HGETALL` reply.
    private static func pairs(_ reply: RedisReply) -> [(String, String)] {
        guard case .array(let items) = reply else { return [] }
        return stride(from: 0, to: items.count - 1, by: 2).compactMap { index in
            guard case .string(let field) = items[index], case .string(let value) = items[index + 1] else { return nil }
            return (String(decoding: field, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
    }

    static func wallMilliseconds() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }
}

import Foundation
import LayercastHub
import LayercastJSON

/// What the nodes tell each other of their rooms (docs/cluster.md, "What an operator sees"):
/// this node's report, written every `report` seconds to `ClusterKeys.nodes`, the others', read
/// as often and forgotten `reportExpiry` after they were written, and from them each room's
/// audience on other nodes.
struct NodeReports {
    let node: String
    let timing: ClusterTiming
    private let clock: any ClusterClock
    /// The other nodes' fresh reports as last read (and this node's own, as written).
    private var reports: [String: NodeReport] = [:]
    private var lastReport = -Double.infinity

    init(node: String, timing: ClusterTiming, clock: any ClusterClock) {
        self.node = node
        self.timing = timing
        self.clock = clock
    }

    /// Connected to Redis (again): report at once.
    mutating func connected() { lastReport = -.infinity }

    /// The commands due now, if any: this node's report of `presence` written, then every
    /// node's read (its reply goes to `read`).
    mutating func due(_ presence: [RoomPresence]) -> (write: [String], read: [String])? {
        guard clock.now - lastReport >= timing.report else { return nil }
        lastReport = clock.now
        return (["HSET", ClusterKeys.nodes, node, report(presence).json.serialized()], ["HGETALL", ClusterKeys.nodes])
    }

    /// Keeps the fresh reports of an `HGETALL` reply.
    mutating func read(_ reply: RedisReply) {
        guard case .array(let items) = reply else { return }
        var fresh: [String: NodeReport] = [:]
        for pair in stride(from: 0, to: items.count - 1, by: 2) {
            guard case .string(let bytes) = items[pair + 1],
                  let value = bytes.withUnsafeBytes({ try? JSONValue.parse(bytes: $0) }),
                  let report = NodeReport(value), isFresh(report) else { continue }
            fresh[report.node] = report
        }
        reports = fresh
    }

    /// The other nodes' fresh reports and this node's own, of `presence` now.
    func all(_ presence: [RoomPresence]) -> [NodeReport] {
        var all = reports.filter { $0.key != node && isFresh($0.value) }
        all[node] = report(presence)
        return Array(all.values)
    }

    /// The clients and distinct players room `key` has on other nodes, as last read.
    func audience(of key: String) -> (clients: Int, players: Int) {
        var clients = 0
        var players = 0
        for report in reports.values where report.node != node {
            for room in report.rooms where room.key == key {
                clients += room.players + room.spectators
                players += room.distinctPlayers
            }
        }
        return (clients, players)
    }

    private func report(_ presence: [RoomPresence]) -> NodeReport {
        NodeReport(node: node, at: Self.wallMilliseconds(), presence: presence)
    }

    /// Reports compare wall clocks: they are written on other machines.
    private func isFresh(_ report: NodeReport) -> Bool {
        Double(Self.wallMilliseconds() - report.at) <= timing.reportExpiry * 1000
    }

    private static func wallMilliseconds() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }
}

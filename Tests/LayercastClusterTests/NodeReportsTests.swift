import LayercastEngine
@testable import LayercastHub
import LayercastJSON
import Testing
@testable import LayercastCluster

/// Node reports (docs/cluster.md, "Node reports"): the commands a node issues on a manual clock
/// and a fixed wall clock, what an origin reads of its room's audience, and the same against a
/// real redis-server.
@Suite struct NodeReportsTests {
    private static let timing = ClusterTiming()
    /// The wall clock of every test, in ms.
    private static let wall = 1_780_000_000_000

    private static func reports(_ node: String, on clock: ManualClock = ManualClock(), wall: Int = Self.wall) -> NodeReports {
        NodeReports(node: node, timing: timing, clock: clock, wall: { wall })
    }

    private static func room(_ key: String, _ source: RoomSource, clients: Int, players: Int = 0, distinct: Int = 0) -> RoomPresence {
        RoomPresence(key: key, source: source, clients: clients, players: players, distinctPlayers: distinct, frame: 30, uptime: 1)
    }

    /// An `HGETALL` reply of `pairs`.
    private static func hash(_ pairs: [(String, String)]) -> RedisReply {
        .array(pairs.flatMap { [RedisReply.string(Array($0.0.utf8)), .string(Array($0.1.utf8))] })
    }

    @Test func aNodeWritesItsReportAndEachRoomsAudienceAndReadsOnlyTheRoomsItIsOriginOf() {
        let clock = ManualClock()
        var reports = Self.reports("n1", on: clock)
        let presence = [Self.room("rain/lobby", .scene, clients: 3, players: 2, distinct: 1), Self.room("radar/x", .origin("n2"), clients: 5)]
        let report = NodeReport(node: "n1", at: Self.wall, presence: presence).json.serialized()
        #expect(reports.due(presence) == [
            .write(["HSET", "layercast:audience:radar/x", "n1", "5 0 \(Self.wall)"]),
            .write(["PEXPIRE", "layercast:audience:radar/x", "2500"]),
            .write(["HSET", "layercast:audience:rain/lobby", "n1", "3 1 \(Self.wall)"]),
            .write(["PEXPIRE", "layercast:audience:rain/lobby", "2500"]),
            .write(["EVAL", ClusterKeys.reportScript, "2", "layercast:nodes", "layercast:nodes:written", "n1", report, "2500"]),
            .readAudience(room: "rain/lobby"),
        ])
        #expect(NodeReports.Command.readAudience(room: "rain/lobby").arguments == ["HGETALL", "layercast:audience:rain/lobby"])
        clock.now = 0.99
        #expect(reports.due(presence) == nil)
        clock.now = 1.0
        #expect(reports.due(presence)?.count == 6)
        clock.now = 1.5
        reports.connected()
        #expect(reports.due(presence)?.count == 6)
        #expect(reports.due([]) == nil)
        clock.now = 2.5
        #expect(reports.due([])?.count == 1)  // the report alone, of no rooms
    }

    /// The origin sums the others' fresh entries; its own, a stale one (older than 2.5 s) and
    /// an unreadable one are not counted, and the last two are deleted.
    @Test func theOriginCountsTheFreshEntriesOfOtherNodesAndDeletesTheStale() {
        let reply = Self.hash([("n1", "9 9 \(Self.wall)"), ("n2", "4 1 \(Self.wall - 2500)"), ("n3", "2 2 \(Self.wall - 2501)"),
                               ("n4", "3 0 \(Self.wall - 100)"), ("n5", "seven")])
        #expect(Self.reports("n1").audience(reply, of: "rain/lobby")
            == NodeReports.Audience(clients: 7, players: 1, sweep: ["HDEL", "layercast:audience:rain/lobby", "n3", "n5"]))
        #expect(Self.reports("n1").audience(Self.hash([]), of: "rain/lobby") == NodeReports.Audience())
        #expect(Self.reports("n1").audience(.error("ERR"), of: "rain/lobby") == NodeReports.Audience())
    }

    /// `/api/rooms` reads the others' fresh reports and this node's own as it is now.
    @Test func allIsTheOthersFreshReportsAndThisNodesOwn() {
        let n2 = NodeReport(node: "n2", at: Self.wall - 1000, rooms: [.init(key: "rain/lobby", origin: "n1", players: 0, spectators: 4,
                                                                              distinctPlayers: 0, frame: 10, uptime: 1)])
        let n3 = NodeReport(node: "n3", at: Self.wall - 2600, rooms: [])
        let oldOwn = NodeReport(node: "n1", at: Self.wall - 1000, rooms: [])
        let presence = [Self.room("rain/lobby", .scene, clients: 1, players: 1, distinct: 1)]
        let reply = Self.hash([("n1", oldOwn.json.serialized()), ("n2", n2.json.serialized()), ("n3", n3.json.serialized()), ("n4", "{")])
        let all = Self.reports("n1").all(reply, presence)
        #expect(all == [n2, NodeReport(node: "n1", at: Self.wall, presence: presence)])
        #expect(Self.reports("n1").audience(of: "rain/lobby", in: all) == NodeReports.Audience(clients: 4, players: 0))
        #expect(Self.reports("n2").audience(of: "rain/lobby", in: all) == NodeReports.Audience(clients: 1, players: 1))
        #expect(Self.reports("n1").all(.error("ERR"), presence) == Self.reports("n1").own(presence))
    }

    @Test func aNodeThatLeavesDeletesItsEntries() {
        #expect(Self.reports("n1").closed("rain/lobby") == ["HDEL", "layercast:audience:rain/lobby", "n1"])
        #expect(Self.reports("n1").stopping([Self.room("rain/lobby", .scene, clients: 1)]) == [
            ["HDEL", "layercast:nodes", "n1"], ["ZREM", "layercast:nodes:written", "n1"], ["HDEL", "layercast:audience:rain/lobby", "n1"],
        ])
    }

    /// Three nodes' commands against a real redis-server: the origin n1 reads the audience of its
    /// room on n2 and n3 (not the room n2 is origin of), `/api/rooms` sees the three reports, a
    /// report whose node stopped writing 2.5 s ago is deleted by the next report written, and n3
    /// stopping leaves the audience to n2.
    @Test func theOriginReadsItsRoomsAudienceFromRedis() throws {
        let server = try RedisTestServer()
        let redis = try RedisConnection(host: "127.0.0.1", port: server.port, database: 0, timeout: 1)
        let wall = NodeReports.wallMilliseconds()  // the report script compares with Redis's clock
        let lobby = "rain/lobby"
        var n1 = Self.reports("n1", wall: wall)
        var n2 = Self.reports("n2", wall: wall)
        var n3 = Self.reports("n3", wall: wall)
        let presence1 = [Self.room(lobby, .scene, clients: 1, players: 1, distinct: 1)]
        let presence2 = [Self.room(lobby, .origin("n1"), clients: 4, players: 2, distinct: 2), Self.room("radar/x", .scene, clients: 1)]
        let presence3 = [Self.room(lobby, .origin("n1"), clients: 6, players: 1, distinct: 1)]
        // A node gone: its report last written at Redis time 1 ms.
        _ = try redis.command(["HSET", ClusterKeys.nodes, "n9", NodeReport(node: "n9", at: wall, rooms: []).json.serialized()])
        _ = try redis.command(["ZADD", ClusterKeys.nodesWritten, "1", "n9"])

        func run(_ commands: [NodeReports.Command]) throws -> [String: RedisReply] {
            var reads: [String: RedisReply] = [:]
            for command in commands {
                let reply = try redis.command(command.arguments)
                #expect(!reply.isError, "\(command.arguments.prefix(2))")
                if case .readAudience(let room) = command { reads[room] = reply }
            }
            return reads
        }
        #expect(try run(n2.due(presence2) ?? []).keys.sorted() == ["radar/x"])
        #expect(try run(n3.due(presence3) ?? []).isEmpty)
        let reads = try run(n1.due(presence1) ?? [])
        #expect(reads.keys.sorted() == [lobby])
        #expect(n1.audience(reads[lobby]!, of: lobby) == NodeReports.Audience(clients: 10, players: 3, sweep: nil))

        #expect(try redis.command(["HKEYS", ClusterKeys.nodes]).arrayTexts.sorted() == ["n1", "n2", "n3"])  // n9 deleted
        let ttl = try redis.command(["PTTL", ClusterKeys.audience(lobby)])
        #expect(ttl.integer.map { 0 < $0 && $0 <= 2500 } == true, "\(ttl)")
        let all = n1.all(try redis.command(["HGETALL", ClusterKeys.nodes]), presence1)
        #expect(n1.audience(of: lobby, in: all) == NodeReports.Audience(clients: 10, players: 3))
        let rooms = ClusterRooms.document(all, fps: 30)["rooms"]?.arrayValue ?? []
        #expect(rooms.map { $0["room"] } == ["x", "lobby"])
        #expect(rooms.last?["clients"] == ["player": 4, "spectator": 7])
        #expect(rooms.last?["origin"] == "n1")

        for command in n3.stopping(presence3) { _ = try redis.command(command) }
        let after = try redis.command(NodeReports.Command.readAudience(room: lobby).arguments)
        #expect(n1.audience(after, of: lobby) == NodeReports.Audience(clients: 4, players: 2, sweep: nil))
        #expect(try redis.command(["HKEYS", ClusterKeys.nodes]).arrayTexts.sorted() == ["n1", "n2"])
    }
}

private extension RedisReply {
    var arrayTexts: [String] {
        guard case .array(let items) = self else { return [] }
        return items.compactMap(\.text)
    }

    var integer: Int? { if case .integer(let n) = self { n } else { nil } }
}

import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastCluster

/// The cluster's addresses and the messages nodes exchange, written and read back.
@Suite struct ClusterWireTests {
    @Test func redisAddresses() throws {
        #expect(try RedisAddress("redis://127.0.0.1:6390") == RedisAddress("redis://127.0.0.1:6390/0"))
        let address = try RedisAddress("redis://cache.internal:7000/3")
        #expect((address.host, address.port, address.database) == ("cache.internal", 7000, 3))
        #expect(address.description == "redis://cache.internal:7000/3")
        let v6 = try RedisAddress("redis://[::1]:6379")
        #expect((v6.host, v6.port, v6.description) == ("::1", 6379, "redis://[::1]:6379"))
        #expect(try RedisAddress("redis://localhost").port == 6379)
        for bad in ["http://x:1", "redis://", "redis://h:0", "redis://h:70000", "redis://h:1/16", "redis://u:p@h:1", "redis://h:x"] {
            #expect(throws: ClusterError.self, "\(bad)") { try RedisAddress(bad) }
        }
    }

    @Test func forwardedInputRoundTrips() throws {
        let inputs = [
            ForwardedInput(room: "rain/lobby", node: "n2", client: "c2000000007", player: "p-1", name: "Ann",
                           action: .tap(x: 12.5, y: -3, viewTime: 4.25, id: 9)),
            ForwardedInput(room: "cubes/a", node: "n3", client: "c5", player: "p-2", name: nil,
                           action: .drag(phase: "moved", x: 1, y: 2, viewTime: 0.5)),
            ForwardedInput(room: "rain/lobby", node: "n2", client: "c8", player: nil, name: nil, action: .joined),
        ]
        for input in inputs {
            #expect(ForwardedInput(try JSONValue.parse(input.json.serialized())) == input)
        }
        #expect(ForwardedInput(["room": "r", "node": "n", "client": "c", "kind": "tap", "x": 1]) == nil)  // no y, viewTime
        #expect(ForwardedInput(["room": "r", "node": "n", "client": "c", "kind": "wave"]) == nil)
    }

    @Test func forwardedCommandsAndAnswersRoundTrip() throws {
        let command = ForwardedCommand(id: 41, node: "n1", room: "rain/lobby", command: "rain", body: Array(#"{"seed":7}"#.utf8))
        #expect(ForwardedCommand(try JSONValue.parse(command.json.serialized())) == command)
        let ok = ForwardedCommand.answer(try JSONValue.parse(ForwardedCommand.answerJSON(41, .success(CommandAnswer(status: 201, ["rain": 5]))).serialized()))
        #expect(ok?.id == 41)
        #expect((try? ok?.answer.get())?.status == 201)
        #expect((try? ok?.answer.get())?.document == ["rain": 5])
        let refused = ForwardedCommand.answer(try JSONValue.parse(ForwardedCommand.answerJSON(42, .failure(APIError(409, .rainRunning, "a rain is running"))).serialized()))
        guard case .failure(let error)? = refused?.answer else { Issue.record("not a failure"); return }
        #expect((error.status, error.code, error.message) == (409, .rainRunning, "a rain is running"))
        // A code this node does not declare passes on as the origin's scene spelled it (scenes declare
        // their own); one that is not spelled as a code makes the answer unreadable, like a status out of range.
        let foreign = ForwardedCommand.answer(["id": 43, "status": 409, "error": "no_such_code", "message": ""])
        guard case .failure(let passed)? = foreign?.answer else { Issue.record("not a failure"); return }
        #expect(passed.code.rawValue == "no_such_code")
        #expect(ForwardedCommand.answer(["id": 43, "status": 409, "error": "No such code!", "message": ""]) == nil)
        #expect(ForwardedCommand.answer(["id": 43, "status": 409, "error": "", "message": ""]) == nil)
    }

    @Test func nodeReportsRoundTrip() throws {
        let report = NodeReport(node: "n1", at: 1_780_000_000_123, rooms: [
            .init(key: "radar/lobby", origin: "n1", players: 2, spectators: 5, distinctPlayers: 1, frame: 900, uptime: 30.25),
            .init(key: "rain/x", origin: nil, players: 0, spectators: 1, distinctPlayers: 0, frame: -1, uptime: 0),
        ])
        #expect(NodeReport(try JSONValue.parse(report.json.serialized())) == report)
    }

    /// /api/rooms over three reports: totals, clients per node, and the newest view of the origin
    /// (the dead n1 still names itself the room's origin in its last report; n2, newer, took it over).
    @Test func roomsOfTheClusterTakeTheNewestOrigin() {
        let reports = [
            NodeReport(node: "n1", at: 1000, rooms: [.init(key: "radar/lobby", origin: "n1", players: 1, spectators: 1, distinctPlayers: 1, frame: 50, uptime: 2)]),
            NodeReport(node: "n2", at: 3000, rooms: [.init(key: "radar/lobby", origin: "n2", players: 0, spectators: 4, distinctPlayers: 0, frame: 120, uptime: 4)]),
            NodeReport(node: "n3", at: 2000, rooms: [.init(key: "radar/lobby", origin: "n1", players: 2, spectators: 0, distinctPlayers: 2, frame: 60, uptime: 1)]),
        ]
        let rooms = ClusterRooms.document(reports, fps: 30)["rooms"]?.arrayValue ?? []
        #expect(rooms.count == 1)
        let room = rooms[0]
        #expect(room["scene"] == "radar" && room["room"] == "lobby")
        #expect(room["origin"] == "n2")
        #expect(room["frame"] == 120)
        #expect(room["clients"] == ["player": 3, "spectator": 5])
        #expect(room["nodes"]?["n3"] == ["player": 2, "spectator": 0])
    }
}

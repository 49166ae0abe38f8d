import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastCluster

/// The messages nodes publish to each other: every kind read back as written, and its exact
/// bytes (nodes of other builds read them, so they must not change unnoticed).
@Suite struct ClusterMessageTests {
    private static let input = ForwardedInput(room: "rain/lobby", node: "n2", client: "c2000000007", player: "p-1", name: "Ann",
                                              action: .tap(x: 12.5, y: -3, viewTime: 4.25, id: 9))
    private static let command = ForwardedCommand(id: 41, node: "n1", room: "rain/lobby", command: "rain", body: Array(#"{"seed":7}"#.utf8))

    /// One message of each kind, the channel it travels on, and its bytes.
    private static var pinned: [(message: ClusterMessage, onRoomChannel: Bool, bytes: String)] { [
        (.frame(origin: "n1", text: ArraySlice(#"{"type":"frame","n":3}"#.utf8)), true, "Fn1\n{\"type\":\"frame\",\"n\":3}"),
        (.event(origin: "n1", text: ArraySlice(#"{"type":"event"}"#.utf8)), true, "En1\n{\"type\":\"event\"}"),
        (.input(input), false,
         #"I{"room":"rain/lobby","node":"n2","client":"c2000000007","player":"p-1","name":"Ann","kind":"tap","x":12.5,"y":-3,"viewTime":4.25,"id":9}"#),
        (.command(command), false, #"C{"id":41,"node":"n1","room":"rain/lobby","command":"rain","body":"{\"seed\":7}"}"#),
        (.answer(id: 41, .success(CommandAnswer(status: 201, ["rain": 5]))), false, #"A{"id":41,"status":201,"document":{"rain":5}}"#),
        (.answer(id: 42, .failure(APIError(409, .rainRunning, "a rain is running"))), false,
         #"A{"id":42,"status":409,"error":"rain_running","message":"a rain is running"}"#),
        (.fullFrameRequest(room: "radar/lobby"), false, "Rradar/lobby"),
        (.delivery(client: "c5", text: ArraySlice(#"{"type":"error"}"#.utf8)), false, "Dc5\n{\"type\":\"error\"}"),
        (.placementRequest(room: "card-flip/table", frame: 41, time: 12.5), false, "Pcard-flip/table\n41 12.5"),
        (.placementRequest(room: "card-flip/new", frame: -1, time: 0), false, "Pcard-flip/new\n-1 0.0"),
    ] }

    @Test func everyKindHasItsBytes() {
        for (message, _, bytes) in Self.pinned {
            #expect(String(decoding: message.bytes, as: UTF8.self) == bytes)
        }
    }

    @Test func everyKindReadsBackAsWritten() throws {
        for (message, onRoomChannel, _) in Self.pinned {
            let read = try ClusterMessage(message.bytes, onRoomChannel: onRoomChannel)
            #expect(read.bytes == message.bytes)
            switch (read, message) {
            case (.frame(let a, let x), .frame(let b, let y)), (.event(let a, let x), .event(let b, let y)),
                 (.delivery(let a, let x), .delivery(let b, let y)):
                #expect(a == b && Array(x) == Array(y))
            case (.input(let a), .input(let b)):
                #expect(a == b)
            case (.command(let a), .command(let b)):
                #expect(a == b)
            case (.answer(let a, .success(let x)), .answer(let b, .success(let y))):
                #expect(a == b && x.status == y.status && x.document == y.document)
            case (.answer(let a, .failure(let x)), .answer(let b, .failure(let y))):
                #expect(a == b && (x.status, x.code, x.message) == (y.status, y.code, y.message))
            case (.fullFrameRequest(let a), .fullFrameRequest(let b)):
                #expect(a == b)
            case (.placementRequest(let a, let m, let s), .placementRequest(let b, let n, let t)):
                #expect(a == b && m == n && s == t)
            default:
                Issue.record("\(message) read back as \(read)")
            }
        }
    }

    @Test func dragsAndJoinsReadBackToo() throws {
        for action: ForwardedInput.Action in [.drag(phase: "moved", x: 1, y: 2, viewTime: 0.5), .joined] {
            let input = ForwardedInput(room: "cubes/a", node: "n3", client: "c5", player: nil, name: nil, action: action)
            guard case .input(let read) = try ClusterMessage(ClusterMessage.input(input).bytes, onRoomChannel: false) else {
                Issue.record("not input")
                continue
            }
            #expect(read == input)
        }
    }

    /// A text with a newline in it stays whole: only the first newline ends the name.
    @Test func textAfterTheNameIsTakenWhole() throws {
        let read = try ClusterMessage(Array("Dc7\n{\"a\":\"x\ny\"}".utf8), onRoomChannel: false)
        guard case .delivery(let client, let text) = read else { Issue.record("not a delivery"); return }
        #expect(client == "c7" && String(decoding: text, as: UTF8.self) == "{\"a\":\"x\ny\"}")
    }

    @Test func whatIsNotAMessageIsRefused() {
        let refused: [(String, Bool)] = [
            ("", false), ("X{}", false), ("Pcard-flip/a", false), ("Pcard-flip/a\n41", false), ("Pcard-flip/a\nx 1", false),
            ("Pcard-flip/a\n1 inf", false), ("Fn1\n{}", false), ("Rrain/a", true), ("Fn1{}", true), ("Dc5", false),
            ("I{\"room\":\"r\"}", false), ("Cnot json", false), ("A{\"id\":1,\"status\":99}", false),
        ]
        for (payload, onRoomChannel) in refused {
            #expect(throws: ClusterError.self, "\(payload)") { try ClusterMessage(Array(payload.utf8), onRoomChannel: onRoomChannel) }
        }
    }
}

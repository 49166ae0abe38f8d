import Foundation
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// protocol.md, "Client → server" and the `error` codes a client message can earn.

/// Decodes `bytes` as one received text message.
private func decode(_ bytes: [UInt8]) -> Result<ClientMessage, ProtocolError> {
    bytes.withUnsafeBytes { ClientMessage.decode($0) }
}

private func decode(_ text: String) -> Result<ClientMessage, ProtocolError> {
    decode(Array(text.utf8))
}

@Suite("Client messages")
struct ClientMessageTests {
    @Test func validMessages() {
        #expect(decode(#"{"type":"tap","x":207,"y":368,"viewTime":12.3}"#) == .success(.tap(x: 207, y: 368, viewTime: 12.3, id: nil)))
        #expect(decode(#"{"type":"drag","phase":"began","x":10,"y":20,"viewTime":12.3}"#)
            == .success(.drag(phase: .began, x: 10, y: 20, viewTime: 12.3)))
        for phase in DragPhase.allCases {
            #expect(decode(#"{"type":"drag","phase":"\#(phase.rawValue)","x":0,"y":0,"viewTime":0}"#)
                == .success(.drag(phase: phase, x: 0, y: 0, viewTime: 0)))
        }
        #expect(decode(#"{"type":"tap","x":1,"y":2,"viewTime":3,"id":17}"#) == .success(.tap(x: 1, y: 2, viewTime: 3, id: 17)))
        #expect(decode(#"{"type":"tap","x":1,"y":2,"viewTime":3,"id":"a"}"#)
            == .failure(ProtocolError(.badField, "tap.id must be a finite number when present (it is the string \"a\")")))
        #expect(decode(#"{"type":"ping","id":5}"#) == .success(.ping(id: 5)))
        #expect(decode(#"{"type":"ping"}"#) == .success(.ping(id: nil)))
        #expect(decode(#"{"type":"ping","id":null}"#) == .success(.ping(id: nil)))
        #expect(decode(#"{"type":"ack","n":130}"#) == .success(.ack(n: 130)))
        #expect(decode(#"{"type":"ack","n":0}"#) == .success(.ack(n: 0)))
        // Unknown keys are ignored; the limits are inclusive; whitespace around is fine.
        #expect(decode(#" {"viewTime":-1,"x":-100000,"y":100000,"type":"tap","pressure":0.5} "#)
            == .success(.tap(x: -100000, y: 100000, viewTime: -1, id: nil)))
    }

    @Test func badJSON() {
        #expect(decode(#"{"type":"tap","#) == .failure(ProtocolError(.badJSON, "text is not JSON: string or '}' expected near end of file at line 1 column 14")))
        #expect(decode("") == .failure(ProtocolError(.badJSON, "message is empty, expected a JSON object")))
        #expect(decode("  ") == .failure(ProtocolError(.badJSON, "text is not JSON: unexpected token near end of file at line 1 column 2")))
        #expect(decode([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) // {"<0xff>":1}
            == .failure(ProtocolError(.badJSON, "text is not JSON: unable to decode byte 0xff near '\"' at line 1 column 2")))
        // A number beyond a double is rejected by the JSON reader itself.
        #expect(decode(#"{"type":"tap","x":1e400,"y":0,"viewTime":0}"#).failureCode == .badJSON)
        #expect(decode("[1,2]") == .failure(ProtocolError(.badJSON, "message is an array, expected an object")))
        #expect(decode(#""tap""#) == .failure(ProtocolError(.badJSON, "message is a string, expected an object")))
        #expect(decode("null") == .failure(ProtocolError(.badJSON, "message is null, expected an object")))
        #expect(decode("3") == .failure(ProtocolError(.badJSON, "message is a number, expected an object")))
        // A repeated key is not accepted either.
        #expect(decode(#"{"type":"ping","type":"tap"}"#).failureCode == .badJSON)
    }

    @Test func unknownType() {
        #expect(decode(#"{"type":"jump"}"#) == .failure(ProtocolError(.unknownType, #"unknown message type "jump""#)))
        #expect(decode(#"{"x":1}"#) == .failure(ProtocolError(.unknownType, #"message has no "type""#)))
        #expect(decode(#"{"type":7}"#) == .failure(ProtocolError(.unknownType, "type must be a string (it is 7.0)")))
        // A long type is cut in the message.
        let long = String(repeating: "x", count: 100)
        #expect(decode(#"{"type":"\#(long)"}"#)
            == .failure(ProtocolError(.unknownType, "unknown message type \"\(String(repeating: "x", count: 40))…\"")))
    }

    @Test func badFields() {
        let rule = "must be a finite number within ±100000"
        #expect(decode(#"{"type":"tap","y":0,"viewTime":0}"#) == .failure(ProtocolError(.badField, "tap.x \(rule) (it is missing)")))
        #expect(decode(#"{"type":"tap","x":"12","y":0,"viewTime":0}"#)
            == .failure(ProtocolError(.badField, "tap.x \(rule) (it is the string \"12\")")))
        #expect(decode(#"{"type":"tap","x":1e308,"y":0,"viewTime":0}"#) == .failure(ProtocolError(.badField, "tap.x \(rule) (it is 1e+308)")))
        #expect(decode(#"{"type":"tap","x":0,"y":-100000.5,"viewTime":0}"#)
            == .failure(ProtocolError(.badField, "tap.y \(rule) (it is -100000.5)")))
        #expect(decode(#"{"type":"tap","x":0,"y":0,"viewTime":null}"#)
            == .failure(ProtocolError(.badField, "tap.viewTime must be a finite number (it is null)")))
        #expect(decode(#"{"type":"drag","phase":"jump","x":0,"y":0,"viewTime":0}"#)
            == .failure(ProtocolError(.badField, "drag.phase must be one of began, moved, ended, cancelled (it is the string \"jump\")")))
        #expect(decode(#"{"type":"drag","x":0,"y":0,"viewTime":0}"#)
            == .failure(ProtocolError(.badField, "drag.phase must be one of began, moved, ended, cancelled (it is missing)")))
        #expect(decode(#"{"type":"drag","phase":"moved","x":[],"y":0,"viewTime":0}"#)
            == .failure(ProtocolError(.badField, "drag.x \(rule) (it is an array)")))
        #expect(decode(#"{"type":"ping","id":"a"}"#)
            == .failure(ProtocolError(.badField, "ping.id must be a finite number when present (it is the string \"a\")")))
        for bad in [#"{"type":"ack"}"#, #"{"type":"ack","n":-1}"#, #"{"type":"ack","n":1.5}"#, #"{"type":"ack","n":"7"}"#,
                    #"{"type":"ack","n":1e300}"#] {
            #expect(decode(bad).failureCode == .badField, "\(bad)")
        }
    }

    @Test func tooLarge() {
        // 4096 bytes pass (padded with spaces), 4097 do not, whatever they hold.
        let ping = #"{"type":"ping"}"#
        let fits = ping + String(repeating: " ", count: 4096 - ping.utf8.count)
        #expect(decode(fits) == .success(.ping(id: nil)))
        #expect(decode(fits + " ") == .failure(ProtocolError(.tooLarge, "message is 4097 bytes, more than 4096")))
        #expect(decode([UInt8](repeating: 0xff, count: 5000)).failureCode == .tooLarge)
    }

    @Test func neverTrapsOnArbitraryBytes() {
        // Deep nesting within the size limit, NULs, lone surrogates, random bytes.
        var generator = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = [Array(String(repeating: "[", count: 4096).utf8), [0], Array(#"{"type":"\ud800"}"#.utf8),
                                 Array(#"{"type":"tap\u0000"}"#.utf8)]
        for _ in 0..<200 {
            inputs.append((0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        for input in inputs {
            if case .success(let message) = decode(input) { Issue.record("decoded \(message) from \(input)") }
        }
    }
}

extension Result where Failure == ProtocolError {
    var failureCode: ErrorCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

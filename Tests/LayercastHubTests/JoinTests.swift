@testable import LayercastHub
import LayercastJSON
import Testing

/// Joining a room through the hub, with no sockets: what a client is sent first, and the joins
/// that are refused.
@Suite struct JoinTests {
    @Test func joinGetsWelcomeThenAFullFrame() throws {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "room": "lobby", "role": "spectator"])
        let first = h.messages(client)
        #expect(first.map(\.type) == ["welcome", "frame"])
        #expect(first[0]["client"]?.stringValue == "c1")
        #expect(first[0]["scene"]?.stringValue == "radar")
        #expect(first[0]["fps"]?.intValue == 30)
        #expect(first[1]["full"]?.boolValue == true)
        #expect(first[1]["n"]?.intValue == 0)
    }

    @Test func lateJoinStartsWithTheNewestFrameInFull() throws {
        let h = HubHarness()
        let early = h.join(["scene": "radar", "role": "spectator"])
        _ = h.read(early)
        h.tick(12)
        let late = h.join(["scene": "radar", "role": "spectator"])
        let frames = h.messages(late).of("frame")
        #expect(frames.count == 1)
        #expect(frames[0]["n"]?.intValue == 12)
        #expect(frames[0]["full"]?.boolValue == true)
    }

    @Test func badJoinsAreToldWhyAndClosed() throws {
        let h = HubHarness()
        let cases: [([String: String], String)] = [
            (["room": "lobby"], "unknown_scene"),
            (["scene": "nope"], "unknown_scene"),
            (["scene": "radar", "room": "bad room"], "bad_room"),
            (["scene": "radar", "role": "king"], "bad_role"),
            (["scene": "radar", "role": "player", "player": "p-0123456789abcdef"], "bad_player"),
            (["scene": "radar", "role": "player", "token": ""], "bad_token"),
        ]
        for (query, code) in cases {
            let client = h.join(query)
            let written = h.read(client)
            #expect(written.first == .message(["type": "error", "code": .string(code), "message": written.first.flatMap(Self.message) ?? ""]), "\(query)")
            #expect(written.last == .close(code: 1008, reason: code), "\(query)")
        }
        #expect(h.hub.localRoomsDocument()["rooms"]?.arrayValue?.isEmpty == true)
    }

    @Test func theServerAndAnAddressHaveLimits() throws {
        let h = HubHarness {
            $0.maxClients = 2
            $0.addressLimits.connections = 1
        }
        let first = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.1")
        #expect(h.messages(first).first?.type == "welcome")
        let sameAddress = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.1")
        #expect(h.read(sameAddress).last == .close(code: 1013, reason: "host_limit"))
        let other = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.2")
        #expect(h.messages(other).first?.type == "welcome")
        let third = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.3")
        #expect(h.read(third).last == .close(code: 1013, reason: "server_full"))
    }

    private static func message(_ written: EmbeddedTransport.Written) -> JSONValue? {
        if case .message(let value) = written { return value["message"] }
        return nil
    }
}

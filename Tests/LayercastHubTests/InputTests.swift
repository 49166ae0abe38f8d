@testable import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastWire
import Testing

/// Client input through the hub: the tap limits, and every protocol error code with what
/// causes it.
@Suite struct InputTests {
    @Test func tapLimitsHoldPerPlayerAcrossConnections() throws {
        let h = HubHarness()
        let a = h.player(scene: "radar", id: 1)
        let b = h.player(scene: "radar", id: 1)  // the same player on a second connection
        _ = h.read(a)
        _ = h.read(b)
        for i in 0..<30 { h.send(i % 2 == 0 ? a : b, #"{"type":"tap","x":1,"y":1,"viewTime":0}"#) }
        let errors = (h.messages(a) + h.messages(b)).of("error")
        #expect(errors.count == 10)
        #expect(errors.allSatisfy { $0["code"]?.stringValue == "rate_limited" })
        // A second later the bucket has refilled.
        h.transport.advance(by: 1)
        h.send(a, #"{"type":"tap","x":1,"y":1,"viewTime":0}"#)
        #expect(h.messages(a).of("error").isEmpty)
    }

    @Test func tapLimitsHoldPerAddressAcrossPlayers() throws {
        let h = HubHarness { $0.addressLimits.tapsPerSecond = 5 }
        let players = (1...3).map { h.player(scene: "radar", id: $0, address: "10.9.9.9") }
        for p in players { _ = h.read(p) }
        for i in 0..<9 { h.send(players[i % 3], #"{"type":"tap","x":1,"y":1,"viewTime":0}"#) }
        let errors = players.flatMap { h.messages($0).of("error") }
        #expect(errors.map { $0["code"]?.stringValue } == Array(repeating: "host_limit", count: 4))
        #expect(h.hub.metricsText().contains("layercast_host_refusals_total{rule=\"taps\"} 4\n"))
    }

    /// Every code a WebSocket `error` carries (`ErrorCode.webSocket`), each from the input that causes it.
    @Test func everyWebSocketErrorCode() throws {
        let h = HubHarness {
            $0.maxClients = 3
            $0.addressLimits.connections = 2
        }
        var seen: Set<String> = []
        func codes(_ client: ClientID) -> [String] { h.messages(client).of("error").compactMap { $0["code"]?.stringValue } }

        let player = h.player(scene: "radar", id: 7)
        _ = h.read(player)
        h.send(player, "{")
        h.send(player, #"{"type":"dance"}"#)
        h.send(player, #"{"type":"tap","x":"left","y":1,"viewTime":0}"#)
        Array(repeating: UInt8(ascii: " "), count: ClientMessage.maxBytes + 1).withUnsafeBytes {
            h.hub.receive(player, $0, first: true, final: true, binary: false)
        }
        [UInt8(1)].withUnsafeBytes { h.hub.receive(player, $0, first: true, final: true, binary: true) }
        for _ in 0..<21 { h.send(player, #"{"type":"tap","x":1,"y":1,"viewTime":0}"#) }
        seen.formUnion(codes(player))

        let spectator = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.2")
        h.send(spectator, #"{"type":"tap","x":1,"y":1,"viewTime":0}"#)
        seen.formUnion(codes(spectator))

        let secondFromAddress = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.1")
        seen.formUnion(codes(secondFromAddress))  // 10.0.0.1 now holds two: allowed
        seen.formUnion(codes(h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.1")))  // server full (3)
        h.hub.disconnect(secondFromAddress)
        h.hub.disconnect(spectator)
        _ = h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.1")
        seen.formUnion(codes(h.join(["scene": "radar", "role": "spectator"], address: "10.0.0.1")))  // address limit
        for query in [["scene": "nope"], ["scene": "radar", "room": "a b"], ["scene": "radar", "role": "x"],
                      ["scene": "radar", "role": "player", "token": "x"], ["scene": "radar", "role": "player", "player": "p-1"]] {
            seen.formUnion(codes(h.join(query, address: "10.0.0.9")))
        }
        let tokenOnly = HubHarness(identities: IdentityPolicyFixtures.tokensOnly)
        seen.formUnion(tokenOnly.messages(tokenOnly.join(["scene": "radar", "role": "player"])).of("error").compactMap { $0["code"]?.stringValue })

        let rain = HubHarness()
        rain.awarding.failures = 1
        let tapper = try rain.claimingTap()
        seen.formUnion(rain.messages(tapper).of("error").compactMap { $0["code"]?.stringValue })

        // In a cluster, a tap in a room whose origin is not known yet.
        let node = HubHarness()
        node.hub.cluster = RelayTests.PairedCluster(node: "edge")
        let early = node.player(scene: "radar", id: 9)
        node.send(early, #"{"type":"tap","x":1,"y":1,"viewTime":0}"#)
        seen.formUnion(node.messages(early).of("error").compactMap { $0["code"]?.stringValue })

        #expect(seen == Set(ErrorCode.webSocket.map(\.rawValue)), "missing: \(Set(ErrorCode.webSocket.map(\.rawValue)).subtracting(seen))")
    }

    @Test func repeatedBadInputClosesWith1008() throws {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        _ = h.read(client)
        for _ in 0..<20 { h.send(client, "nonsense") }
        let written = h.read(client)
        #expect(written.last == .close(code: 1008, reason: "too many bad messages"))
        #expect(h.hub.metrics.clientsDropped["abuse"] == 1)
    }

    @Test func pingIsAnsweredWithTheRoomsTime() throws {
        let h = HubHarness()
        let client = h.join(["scene": "radar", "role": "spectator"])
        _ = h.read(client)
        h.transport.advance(by: 2.5)
        h.send(client, #"{"type":"ping","id":5}"#)
        #expect(h.messages(client) == [["type": "pong", "id": 5, "time": 2.5]])
    }
}

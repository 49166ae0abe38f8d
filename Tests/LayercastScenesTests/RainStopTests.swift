import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// A rain stopped by the admin command (RainTestSupport.swift: the harness).
@Suite("Rain: stopping")
struct RainStopTests {
    @Test func aStopInTheCountdownLetsNoPacketFall() throws {
        let h = RainHarness()
        h.start(at: 0)
        h.run(to: 2.5)
        #expect(h.perform { $0.stopRain() })
        #expect(h.scene.phase == .results && h.scene.countdownLab == nil)
        #expect(h.scene.layer.sublayers?.map(\.name) == ["packets", "labels"])
        let results = try #require(h.takeEvents().last?.data.objectValue)
        #expect(results["phase"] == "results" && results["stoppedAt"] == 2.5 && results["claimed"] == 0)
        #expect(results["seed"] == 2024)   // it is over: the secret is revealed
        h.run(to: 9)   // the countdown's timer would have started the rain at 5
        #expect(h.scene.spawned == 0 && h.livePackets.isEmpty && h.decide(CGPoint(x: 200, y: 300), at: 9) == .closed)
        h.run(to: 12.5)   // results for 10 s from the stop
        #expect(h.scene.phase == .idle && h.scene.rain == nil)
    }

    @Test func aStopWhileRainingKeepsTheClaimsAndClosesTheRest() throws {
        let h = RainHarness()
        h.start(at: 0)
        var t = 6.0
        let won = claim(2, by: "p1", in: h, from: &t)
        #expect(won.count == 2)
        h.run(to: t)
        let spawned = h.scene.spawned
        let falling = try #require(clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }))
        #expect(h.perform { $0.stopRain() })
        #expect(!h.perform { $0.stopRain() })   // once
        #expect(h.scene.phase == .results && h.livePackets.isEmpty)
        #expect(h.decide(falling.point, at: t) == .closed)
        let rain = try #require(h.scene.rain)
        #expect(rain.stoppedAt == t && rain.claimed.count == 2 && rain.awarded == won.reduce(0) { $0 + $1.coins })
        let results = try #require(h.takeEvents().last?.data.objectValue)
        #expect(results["stoppedAt"] == .number(t) && results["claimed"] == 2 && results["endsAt"] == 25)   // the planned end: 5 s of countdown and 20 s of rain
        h.run(to: 24.999)
        #expect(h.scene.spawned == spawned)   // the spawn timer is gone
        h.run(to: t + 10)
        #expect(h.scene.phase == .idle)
        #expect(h.takeEvents().last?.data.objectValue?["stoppedAt"] == nil)   // idle says only the rain's id and secret
        #expect(!h.perform { $0.stopRain() })
    }
}

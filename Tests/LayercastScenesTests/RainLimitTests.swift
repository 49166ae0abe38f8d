import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The per-player rules of a fair rain (docs/protocol.md, "Provably fair rains"; RainTestSupport.swift: the harness).
@Suite struct RainLimitTests {
    @Test func aPacketMustHaveBeenOnScreenForMinVisible() throws {
        let h = RainHarness()
        h.start(at: 0, RainSettings(seed: 2024, minVisible: 0.3))
        // Packet 0 appears at 5 s; at 5.1 and 5.2999 it is too young, from 5.3 it can be claimed
        // (to the microsecond: 5.3 − 5.0 is 0.29999… in binary).
        h.run(to: 5.1)
        let young = try #require(clearPacket(h, at: 5.1) { $0 == 0 })
        #expect(h.decide(young.point, at: 5.1) == .tooSoon(packet: 0))
        h.run(to: 5.3)
        let seen = try #require(clearPacket(h, at: 5.2999) { $0 == 0 })
        #expect(h.decide(seen.point, at: 5.2999) == .tooSoon(packet: 0))
        let grown = try #require(clearPacket(h, at: 5.3) { $0 == 0 })
        guard case .claim(let claim) = h.decide(grown.point, at: 5.3) else {
            Issue.record("packet 0 not claimable at 5.3")
            return
        }
        #expect(claim.item == 0)
        _ = h.takeEvents()
        #expect(h.tap(seen.point, at: 5.2999, client: "c1", id: 3) == .refused(rule: "too_soon"))
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "too_soon", "packet": 0, "id": 3], client: "c1", audience: .client)])
    }

    @Test func aPlayerAtALimitIsRefusedAndThePacketStaysFree() throws {
        let h = RainHarness()
        let rain = RainSettings(seed: 2024, maxAwardsPerPlayer: 2, minVisible: 0)
        h.start(at: 0, rain)
        var t = 6.0
        let won = claim(2, by: "bot", in: h, from: &t)
        #expect(won.count == 2 && h.scene.rain?.tallies["bot"]?.packets == 2)
        h.run(to: t)
        let free = try #require(clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }))
        #expect(h.decide(free.point, at: t, by: "bot") == .capped(.maxAwards))
        guard case .claim(let claim) = h.decide(free.point, at: t, by: "honest") else {
            Issue.record("the packet did not stay free")
            return
        }
        #expect(claim.item == free.packet)
        _ = h.takeEvents()
        #expect(h.tap(free.point, at: t, by: "bot", client: "c2") == .refused(rule: "max_awards"))
        #expect(h.takeEvents() == [SceneEvent(name: "tap", data: ["result": "capped", "rule": "max_awards"], client: "c2", audience: .client)])
    }

    @Test func theCoinLimitCutsTheLastAwardAndThenRefuses() throws {
        let h = RainHarness()
        // Every packet pays 10 (80 winners of a pool of 800); a player may win 25 coins.
        let rain = RainSettings(pool: 800, winners: 80, minCoins: 10, maxCoins: 10, seed: 2024, maxCoinsPerPlayer: 25, minVisible: 0)
        h.start(at: 0, rain)
        var t = 6.0
        #expect(claim(3, by: "bot", in: h, from: &t).map(\.coins) == [10, 10, 5])
        #expect(h.scene.rain?.tallies["bot"]?.coins == 25)
        #expect(h.scene.rain?.awarded == 25)
        h.run(to: t)
        let free = try #require(clearPacket(h, at: t, where: { h.scene.rain?.claimed[$0] == nil }))
        #expect(h.decide(free.point, at: t, by: "bot") == .capped(.maxCoins))
        // The refused packet is the one under the point: it stays free, and another player claims it.
        #expect(h.decide(free.point, at: t, by: "honest") == .claim(Claim(round: rainID, item: free.packet, coins: 10, point: free.point, time: t)))
    }
}

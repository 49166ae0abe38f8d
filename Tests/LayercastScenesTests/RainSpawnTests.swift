import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// Packets spawned during a rain (RainTestSupport.swift: the harness).
@Suite("Rain: spawning")
struct RainSpawnTests {
    @Test func fourPacketsPerSecond() throws {
        let h = RainHarness()
        let s: CFTimeInterval = 2
        h.start(at: s)
        h.run(to: s + 4.99)
        #expect(h.scene.spawned == 0)
        // A packet at s+5 itself, then one every 0.25 s: 4k + 1 by s+5+k.
        for k in [0.0, 0.1, 0.24, 0.25, 1, 2.5, 3, 10, 19.5, 19.74, 19.75, 19.9] {
            h.run(to: s + 5 + k)
            #expect(h.scene.spawned == Int((k * 4).rounded(.down)) + 1, "at s+5+\(k)")
            #expect(h.livePackets.last?.name == "packet-\(h.scene.spawned - 1)", "the newest on top")
        }
        // Falls take at least 3.5 s, so by s+8 every packet is still on screen, newest on top.
        let fresh = RainHarness()
        fresh.start(at: s)
        fresh.run(to: s + 8)
        #expect(fresh.livePackets.map(\.name) == (0...12).map { "packet-\($0)" })
        // 20 s: 80 packets, packet-79 at s+24.75, none after.
        h.run(to: s + 24.75)
        #expect(h.scene.spawned == 80 && h.livePackets.last?.name == "packet-79")
        h.run(to: s + 40)
        #expect(h.scene.spawned == 80 && h.scene.phase == .idle)
        #expect(h.livePackets.isEmpty)
    }

    @Test func anOddDurationSpawnsItsWholeQuarters() {
        // 1.6 s: ⌊6.4⌋ = 6 packets, the last at s+5+1.25; the rain ends at s+6.6.
        let h = RainHarness()
        h.start(at: 0, RainSettings(duration: 1.6, pool: 10, winners: 2, minCoins: 5, maxCoins: 5, seed: 3, minVisible: 0))
        h.run(to: 6.5)
        #expect(h.scene.spawned == 6 && h.scene.phase == .raining)
        h.run(to: 6.6)
        #expect(h.scene.phase == .results && h.scene.spawned == 6)
    }

    @Test func theEndRemovesEveryPacketAndItsAnimations() throws {
        let h = RainHarness()
        h.start(at: 0)
        h.run(to: 24.999)
        let falling = h.livePackets
        // Packets of the last ~5.5 s are still there: at least those spawned after 25 − 3.5 = 21.5.
        #expect(falling.count >= 14)
        #expect(falling.allSatisfy { $0.animationKeys() == ["fall", "spin"] })
        h.run(to: 25)
        #expect(h.livePackets.isEmpty && h.scene.packetLayers.isEmpty)
        #expect(falling.allSatisfy { $0.superlayer == nil && $0.animationKeys() == nil })
        #expect(h.scene.phase == .results)
        // Nothing spawns during the results.
        h.run(to: 30)
        #expect(h.livePackets.isEmpty && h.scene.spawned == 80)
    }
}

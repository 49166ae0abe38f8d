import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// A rain's countdown and phases (RainTestSupport.swift: the harness).
@Suite("Rain: countdown and phases")
struct RainCountdownTests {
    @Test func countdownShowsFiveToOneThenTheRainStarts() throws {
        let h = RainHarness()
        let s: CFTimeInterval = 2
        #expect(h.start(at: s))
        #expect(h.scene.phase == .countdown)
        #expect(h.takeEvents() == [rainEvent("countdown", s: s)])
        let rain = try #require(h.scene.rain)
        #expect(rain.id == rainID && rain.settings == settings && rain.plan == PrizePlan(settings: settings))
        #expect(rain.countdownAt == s && rain.startsAt == s + 5 && rain.endsAt == s + 25 && rain.claimed.isEmpty)
        // Only one rain at a time.
        #expect(!h.perform { $0.startRain(id: 10, settings: RainSettings()) })
        #expect(h.scene.rain?.id == rainID)

        // The seed's dispatch timer: "5" at s, "4" at s+1, … "1" at s+4.
        for (k, text) in ["5", "4", "3", "2", "1"].enumerated() {
            h.run(to: s + Double(k) + 0.5)
            let label = try #require(h.scene.countdownLab)
            #expect(label.string == text, "at s+\(Double(k) + 0.5)")
            #expect(label.superlayer === h.scene.layer)
            #expect(h.scene.phase == .countdown)
        }
        let label = try #require(h.scene.countdownLab)
        #expect(label.name == "countdown" && label.fontSize == 96 && label.fontWeight == 0.4)
        #expect(label.foregroundColor == CGColor(red: 1, green: 223 / 255, blue: 14 / 255, alpha: 1))
        #expect(label.alignmentMode == .center)
        // 96 pt × 1.2 line height, full width, centred vertically.
        let height = 96 * 1.2
        #expect(abs(label.frame.minY - (736 - height) / 2) < 1e-9 && abs(label.frame.height - height) < 1e-9)
        #expect(label.frame.minX == 0 && label.frame.width == 414)
        #expect(h.takeEvents().isEmpty)
        #expect(h.livePackets.isEmpty)

        h.run(to: s + 4.999)
        #expect(h.scene.phase == .countdown && h.livePackets.isEmpty)
        // s+5: the label goes, the rain starts and the first packet appears at once.
        h.run(to: s + 5)
        #expect(h.scene.phase == .raining)
        #expect(h.scene.countdownLab == nil && label.superlayer == nil)
        #expect(h.takeEvents() == [rainEvent("raining", s: s)])
        #expect(h.livePackets.map(\.name) == ["packet-0"])
        h.run(to: s + 5.5)
        #expect(h.scene.countdownLab == nil)
        #expect((h.scene.layer.sublayers ?? []).map(\.name) == ["packets", "labels"])

        // s+25: results for 10 s, then idle.
        h.run(to: s + 24.999)
        #expect(h.scene.phase == .raining && h.takeEvents().isEmpty)
        h.run(to: s + 25)
        #expect(h.scene.phase == .results)
        #expect(h.takeEvents() == [rainEvent("results", s: s, extra: [("claimed", 0), ("awarded", 0)])])
        #expect(h.decide(CGPoint(x: 100, y: 100), at: s + 25) == .closed)
        h.run(to: s + 34.999)
        #expect(h.scene.phase == .results && h.scene.rain?.id == rainID)
        h.run(to: s + 35)
        #expect(h.scene.phase == .idle && h.scene.rain == nil)
        #expect(h.takeEvents() == [rainEvent("idle", s: s)])
        // Idle again: a new rain can start, with its own id.
        #expect(h.start(at: s + 40, id: 10))
        #expect(h.scene.rain?.id == 10 && h.scene.phase == .countdown)
    }

    @Test func tapsAreClosedOutsideTheRain() {
        let h = RainHarness()
        h.start(at: 0)
        h.run(to: 4.9)
        #expect(h.decide(CGPoint(x: 207, y: 368), at: 4.9) == .closed)
    }
}

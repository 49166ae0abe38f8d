import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The same seed is the same rain: at any frame rate, replayed for an audit, rebuilt for a takeover
// (RainTestSupport.swift: the harness).
@Suite("Rain: determinism and replay")
struct RainReplayTests {
    @Test func theSameSeedGivesTheSameRainAtAnyStep() {
        let checkpoints: [CFTimeInterval] = [3, 6.01, 9.37, 14.71, 20, 26.5, 31]
        let rates = [30, 7, 1]   // frames a second
        var runs: [[[String]]] = []
        var eventRuns: [[SceneEvent]] = []
        for fps in rates {
            let h = RainHarness(fps: fps)
            h.start(at: 0.7)
            var shots: [[String]] = []
            for c in checkpoints {
                h.run(to: c)
                shots.append(snapshot(h, at: c))
            }
            runs.append(shots)
            eventRuns.append(h.events)
        }
        #expect(runs[0] == runs[1] && runs[0] == runs[2])
        #expect(eventRuns[0] == eventRuns[1] && eventRuns[0] == eventRuns[2])
        #expect(runs[0][2].count > 10)
        // Another seed, another rain.
        let other = RainHarness()
        other.start(at: 0.7, RainSettings(seed: 2025, minVisible: 0))
        other.run(to: 9.37)
        #expect(snapshot(other, at: 9.37) != runs[0][2])
    }

    @Test func aReplayGivesTheLiveOutcomes() throws {
        // Live: a room ticking at 30 fps from s = 31/30; taps arrive between ticks and are resolved
        // 0.12 s in the past (the client's view), then confirmed.
        let live = RainHarness()
        let s = 31.0 / 30
        live.start(at: s)
        var taps: [RainReplay.Tap] = []
        var outcomes: [RainReplay.Outcome?] = []
        var emptyPoint: (point: CGPoint, viewTime: CFTimeInterval)?
        for (n, k) in [2.0, 4.5, 7, 9.3, 12, 15.2, 18].enumerated() {
            let serverTime = s + 5 + k + 0.013
            live.run(to: serverTime)
            let viewTime = serverTime - 0.12
            let player = "p\(n % 3)"
            guard let target = clearPacket(live, at: viewTime, where: { live.scene.rain?.claimed[$0] == nil }) else { continue }
            guard case .claim(let claim) = live.tap(target.point, at: viewTime, by: player, name: "Player \(n)") else {
                Issue.record("no claim")
                continue
            }
            taps.append(RainReplay.Tap(player: player, name: "Player \(n)", point: target.point, viewTime: viewTime, serverTime: serverTime))
            outcomes.append(RainReplay.Outcome(packet: claim.item, coins: claim.coins, player: player))
            // A tap on the same packet a moment later is taken: not accepted, not recorded.
            #expect(live.decide(target.point, at: viewTime) == .taken(packet: claim.item))
            #expect(live.scene.rain?.claimed[claim.item] == player)
            if emptyPoint == nil {
                for x in stride(from: 20.0, through: 390, by: 10) {
                    let p = CGPoint(x: x, y: 300)
                    if live.livePackets.allSatisfy({ depth(of: p, in: $0, at: viewTime) < -2 }) {
                        emptyPoint = (p, viewTime)
                        break
                    }
                }
            }
        }
        live.run(to: s + 40)
        #expect(taps.count >= 5)
        #expect(outcomes.contains { ($0?.coins ?? 0) > 0 } || outcomes.count < 5)

        let replayed = RainReplay.run(id: rainID, settings: settings, configuration: .init(), mediaStart: s, taps: taps)
        #expect(replayed == outcomes)

        // Tampered: the first tap moved to where no packet was gives nothing; the audit sees it.
        let empty = try #require(emptyPoint)
        #expect(empty.viewTime == taps[0].viewTime)
        var tampered = taps
        tampered[0].point = empty.point
        let audit = RainReplay.run(id: rainID, settings: settings, configuration: .init(), mediaStart: s, taps: tampered)
        #expect(audit[0] == nil)
        #expect(audit != outcomes)
        // Another seed in the settings replays another rain.
        var wrong = settings
        wrong.seed = 2025
        #expect(RainReplay.run(id: rainID, settings: wrong, configuration: .init(), mediaStart: s, taps: taps) != outcomes)
    }

    @Test func aRebuildLateInALongRainIsTheLiveRain() throws {
        // Live: a 60 s rain in a room ticking at 30 fps, a free packet tapped every 0.5 s (seen
        // 0.12 s before the tap arrives) by one of five players, until 52 s into the fall.
        let long = RainSettings(duration: 60, pool: 3000, winners: 120, minCoins: 1, maxCoins: 50, seed: 77,
                                maxAwardsPerPlayer: 40, maxCoinsPerPlayer: 900)
        let live = RainHarness()
        let s = 31.0 / 30
        live.start(at: s, long)
        var taps: [RainReplay.Tap] = []
        var outcomes: [RainReplay.Outcome?] = []
        for k in stride(from: 1.0, through: 52, by: 0.5) {
            let serverTime = s + 5 + k + 0.013
            live.run(to: serverTime)
            let viewTime = serverTime - 0.12
            let player = "p\(taps.count % 5)"
            guard let target = clearPacket(live, at: viewTime, where: { live.scene.rain?.claimed[$0] == nil }),
                  case .claim(let claim) = live.tap(target.point, at: viewTime, by: player, name: player) else { continue }
            taps.append(RainReplay.Tap(player: player, name: player, point: target.point, viewTime: viewTime, serverTime: serverTime))
            outcomes.append(RainReplay.Outcome(packet: claim.item, coins: claim.coins, player: player))
        }
        #expect(taps.count >= 80)
        let last = try #require(taps.last).serverTime
        #expect(live.now == last)
        _ = live.takeEvents()

        // Taken over just after the last award: the rebuilt scene is the live one, now and later.
        let rebuilt = RainReplay.rebuild(id: rainID, settings: long, configuration: .init(), mediaStart: s, taps: taps)
        #expect(rebuilt.outcomes == outcomes)
        #expect(rebuilt.stage.now == last)
        let taken = RainHarness(stage: rebuilt.stage, scene: rebuilt.scene, fps: 1)
        #expect(taken.scene.rain == live.scene.rain)
        #expect(taken.scene.spawned == live.scene.spawned)
        #expect(snapshot(taken, at: last) == snapshot(live, at: last))
        #expect(snapshot(taken, at: last).count > 15)
        for t in [last + 1.0 / 30, last + 0.77, last + 4.2, s + 5 + 60.5, s + 5 + 71] {
            live.run(to: t)
            taken.run(to: t)
            #expect(snapshot(taken, at: t) == snapshot(live, at: t), "at \(t)")
            #expect(taken.takeEvents() == live.takeEvents(), "events by \(t)")
            #expect(taken.scene.phase == live.scene.phase)
        }
        #expect(taken.scene.phase == .idle)
    }
}

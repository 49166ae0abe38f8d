import Foundation
@testable import LayercastSceneAPI
import Testing
@testable import LayercastScenes

// The rain's settings and prize plan. The seed's demo: 80 packets (20 s at the seed's 4 per
// second), one in three paying; the defaults keep that ratio (27 of 80).

/// Checks every promise of a plan: `winners` distinct packets in range, coins in bounds, exact pool.
private func checkPlan(_ plan: PrizePlan, _ s: RainSettings, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(plan.prizes.count == s.winners, sourceLocation: sourceLocation)
    #expect(plan.prizes.keys.allSatisfy { (0..<s.packets).contains($0) }, sourceLocation: sourceLocation)
    #expect(plan.prizes.values.allSatisfy { (s.minCoins...s.maxCoins).contains($0) }, sourceLocation: sourceLocation)
    #expect(plan.prizes.values.reduce(0, +) == s.pool, sourceLocation: sourceLocation)
}

@Suite("Prize plan")
struct PrizePlanTests {
    @Test func packetsAreFourPerSecond() {
        // The seed's timer: every 1/4 s.
        #expect(RainSettings().packets == 80)
        #expect(RainSettings(duration: 1).packets == 4)
        #expect(RainSettings(duration: 20.3).packets == 81)
        #expect(RainSettings(duration: 1.24).packets == 4)
        #expect(RainSettings(duration: 600).packets == 2400)
        #expect(RainSettings(duration: .nan).packets == 0)
    }

    @Test func defaultsAreValid() {
        let s = RainSettings()
        #expect(s == RainSettings(duration: 20, pool: 888, winners: 27, minCoins: 8, maxCoins: 88, seed: 0))
        #expect(s.validationError() == nil)
    }

    @Test func validationNamesTheField() {
        func error(_ change: (inout RainSettings) -> Void) -> String? {
            var s = RainSettings()
            change(&s)
            return s.validationError()
        }
        let duration = "duration must be a number of seconds from 1 to 600"
        #expect(error { $0.duration = 0.99 } == duration)
        #expect(error { $0.duration = 600.01 } == duration)
        #expect(error { $0.duration = .nan } == duration)
        #expect(error { $0.duration = .infinity } == duration)
        #expect(error { $0.duration = 1 } == "winners must be at most packets (4)")
        #expect(error { $0.pool = -1 } == "pool must be at least 0")
        #expect(error { $0.winners = -1 } == "winners must be at least 0")
        #expect(error { $0.minCoins = -1 } == "minCoins must be at least 0")
        #expect(error { $0.maxCoins = -1 } == "maxCoins must be at least 0")
        #expect(error { $0.minCoins = 90 } == "minCoins must be at most maxCoins (88)")
        #expect(error { $0.winners = 81 } == "winners must be at most packets (80)")
        // 27 winners: 27 × 8 = 216 … 27 × 88 = 2376.
        #expect(error { $0.pool = 215 } == "pool must be at least winners × minCoins (216)")
        #expect(error { $0.pool = 216 } == nil)
        #expect(error { $0.pool = 2376 } == nil)
        #expect(error { $0.pool = 2377 } == "pool must be at most winners × maxCoins (2376)")
        #expect(error { $0.winners = 0 } == "pool must be 0 when winners is 0")
        #expect(error { $0.winners = 0; $0.pool = 0 } == nil)
        #expect(error { $0.seed = 1 << 53 } == "seed must be at most 2^53 − 1 (9007199254740991)")
        #expect(error { $0.seed = (1 << 53) - 1 } == nil)
        // Huge bounds do not overflow.
        #expect(error { $0.maxCoins = .max; $0.pool = .max } == nil)
        #expect(error { $0.minCoins = .max; $0.maxCoins = .max } == "pool must be at least winners × minCoins (more than \(Int.max))")
    }

    @Test func plansKeepEveryPromise() {
        let variants = [
            RainSettings(),
            RainSettings(duration: 7.5, pool: 100, winners: 10, minCoins: 1, maxCoins: 50),
            RainSettings(duration: 1, pool: 4, winners: 4, minCoins: 1, maxCoins: 1),
            RainSettings(duration: 60, pool: 240 * 88, winners: 240, minCoins: 8, maxCoins: 88),   // all at the top
            RainSettings(duration: 60, pool: 240 * 8, winners: 240, minCoins: 8, maxCoins: 88),    // all at the bottom
            RainSettings(duration: 20, pool: 1, winners: 1, minCoins: 0, maxCoins: 5),
            RainSettings(duration: 20, pool: 0, winners: 80, minCoins: 0, maxCoins: 0),
            RainSettings(duration: 20, pool: 0, winners: 0, minCoins: 0, maxCoins: 0),
            RainSettings(duration: 20, pool: 10, winners: 3, minCoins: 0, maxCoins: .max),
            RainSettings(duration: 600, pool: 2400 * 50, winners: 2400, minCoins: 1, maxCoins: 100),
        ]
        for var s in variants {
            #expect(s.validationError() == nil)
            for seed: UInt64 in [0, 1, 2, 99, RainSettings.maxSeed] {
                s.seed = seed
                checkPlan(PrizePlan(settings: s), s)
            }
        }
        var top = RainSettings(duration: 60, pool: 240 * 88, winners: 240, minCoins: 8, maxCoins: 88)
        top.seed = 5
        #expect(PrizePlan(settings: top).prizes == Dictionary(uniqueKeysWithValues: (0..<240).map { ($0, 88) }))
    }

    @Test func aSeedFixesThePlan() {
        let a = PrizePlan(settings: RainSettings(seed: 2024))
        #expect(a == PrizePlan(settings: RainSettings(seed: 2024)))
        #expect(a != PrizePlan(settings: RainSettings(seed: 2025)))
        #expect(a.prizes.keys.sorted() != PrizePlan(settings: RainSettings(seed: 2025)).prizes.keys.sorted())
        // The amounts are spread, not all equal (888 / 27 is not whole anyway).
        #expect(Set(a.prizes.values).count > 5)
    }

    @Test func everyPacketIsEquallyLikelyToPay() {
        // 27 of 80: each packet pays with probability 27/80 = 0.3375; over 3000 seeds a packet's
        // count is 1012.5 ± 25.9 (one standard deviation). Allow 5 of them.
        var counts = [Int](repeating: 0, count: 80)
        for seed in 0..<3000 {
            let plan = PrizePlan(settings: RainSettings(seed: UInt64(seed)))
            for packet in plan.prizes.keys { counts[packet] += 1 }
        }
        #expect(counts.allSatisfy { abs(Double($0) - 1012.5) < 130 }, "\(counts)")
    }
}

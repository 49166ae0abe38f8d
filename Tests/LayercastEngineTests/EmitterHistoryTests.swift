import Foundation
import Testing
@testable import LayercastEngine

// The parameter history of emitters (docs/engine-model.md §9.1): every change is kept while a live
// particle can need it; older ones are forgotten without moving any birth. Root layers with
// beginTime 0 under a manual clock, so layer time is media time.

private let dot = CGImage(named: "dot", width: 4, height: 4)

@Suite("Emitter parameter history")
struct EmitterHistoryTests {
    @Test func particleBornBeforeManyChangesKeepsItsValues() {
        let clock = ManualClock(now: 0)
        SceneContext(clock: clock).run {
            let layer = CAEmitterLayer()
            let cell = CAEmitterCell()
            cell.contents = dot
            cell.birthRate = 1
            cell.lifetime = 1000
            cell.velocity = 10
            layer.emitterCells = [cell]
            // 300 changes after the first particle's birth at t = 1 (more than the old 64-change limit).
            clock.advance(by: 1.5)
            for j in 0..<300 {
                cell.velocity = j % 2 == 0 ? 20 : 30
                clock.advance(by: 1)
            }
            // t = 301.5: the particle born at 1 still flies at 10 pt/s along +x: x = 10 × 300.5.
            let first = layer.particles(at: 301.5)[0]
            #expect(first.birthTime == 1)
            #expect(abs(first.position.x - 3005) < 1e-9)
            // Every change is still needed (lifetime 1000 s), so none was forgotten.
            #expect(cell.history.changes.count == 301)
        }
    }

    @Test func forgettingOldChangesKeepsBirthIndicesAndTimes() {
        let clock = ManualClock(now: 0)
        SceneContext(clock: clock).run {
            let layer = CAEmitterLayer()
            let cell = CAEmitterCell()
            cell.contents = dot
            cell.lifetime = 2
            cell.birthRate = 1
            layer.emitterCells = [cell]
            // The rate alternates 1/s on [2m, 2m + 1) and 3/s on [2m + 1, 2m + 2) for 400 s.
            for second in 1...400 {
                clock.advance(by: 1)
                cell.birthRate = second % 2 == 0 ? 1 : 3
            }
            // N(398) = 4 × 199 = 796, N(399) = 797, N(400) = 800, N(400.5) = 800.5. Alive at 400.5 (age < 2):
            // births 797 at 399, 798 at 399⅓, 799 at 399⅔, 800 at 400 — ids hash(hash(0, 0), k).
            let particles = layer.particles(at: 400.5)
            let source = ParticleRandom.mix(0, 0)
            #expect(particles.map(\.id) == (797...800).map { ParticleRandom.mix(source, UInt64($0)) })
            let third: CFTimeInterval = 1.0 / 3
            let births: [CFTimeInterval] = [399, 399 + third, 399 + 2 * third, 400]
            #expect(particles.map(\.birthTime) == births)
            // Changes older than now − 2 × 2 s − 10 s were forgotten (about 14 s of them remain).
            #expect(cell.history.changes.count < 20)
            // Later changes continue the same count: N(401) = 801, then 3/s.
            clock.advance(by: 1)
            cell.birthRate = 3
            let later = layer.particles(at: 401.7)
            #expect(later.map(\.id) == (800...803).map { ParticleRandom.mix(source, UInt64($0)) })
            let laterBirths: [CFTimeInterval] = [400, 401, 401 + third, 401 + 2 * third]
            #expect(later.map(\.birthTime) == laterBirths)
        }
    }

    @Test func forgettingARemovedBurstKeepsTheBirthsItCounted() {
        let clock = ManualClock(now: 0)
        let context = SceneContext(clock: clock)
        context.run {
            let layer = CAEmitterLayer()
            let cell = CAEmitterCell()
            cell.name = "heart"
            cell.contents = dot
            cell.lifetime = 3
            cell.birthRate = 2
            layer.emitterCells = [cell]
            let burst = CABasicAnimation(keyPath: "emitterCells.heart.birthRate")
            burst.fromValue = 0
            burst.toValue = 283
            burst.duration = 1
            layer.add(burst, forKey: "burst")
            // The burst counts 283/2 = 141.5 by t = 1 and is removed; then 2/s, and 300 velocity changes.
            for _ in 0..<300 {
                clock.advance(by: 1)
                context.advance()
                cell.velocity = cell.velocity == 0 ? 5 : 0
            }
            clock.advance(by: 0.5)
            // N(300.5) = 141.5 + 2 × 299.5 = 740.5 and N(297.5) = 734.5: births 735…740 are alive (age < 3),
            // birth k at 1 + (k − 141.5)/2 — up to the burst's count, 141.5 to within the single-precision
            // rounding of its animated rate (§9.7).
            let particles = layer.particles(at: 300.5)
            #expect(cell.history.changes.count < 30)
            #expect(layer.animationKeys() == nil)
            let source = ParticleRandom.mix(0, 0)
            #expect(particles.map(\.id) == (735...740).map { ParticleRandom.mix(source, UInt64($0)) })
            for (particle, k) in zip(particles, 735...740) {
                #expect(abs(particle.birthTime - (1 + (Double(k) - 141.5) / 2)) < 1e-5)
            }
        }
    }
}

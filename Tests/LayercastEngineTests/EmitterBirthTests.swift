import Foundation
import Testing
@testable import LayercastEngine

// The birth records of `particleBirths` against `particles(at:)` (docs/engine-model.md §9.8): at
// random times, the records alive then, evaluated and capped to the newest `maxParticles`, are the
// particles, within floating-point rounding.

private let flake = CGImage(named: "snow", width: 20, height: 20)
private let spark = CGImage(named: "spark", width: 8, height: 8)

/// A layer like the snow scene's: an invisible container cell emitting visible flakes (a sub-cell),
/// plus a visible sparking cell with its own sub-cell, varied lifetimes, colours, speeds and spins.
private func busyEmitter() -> CAEmitterLayer {
    let layer = CAEmitterLayer()
    layer.emitterShape = .line
    layer.emitterSize = CGSize(width: 300, height: 0)
    layer.emitterPosition = CGPoint(x: 150, y: -10)
    let snow = CAEmitterCell()
    snow.contents = flake
    snow.birthRate = 3
    snow.lifetime = 4
    snow.lifetimeRange = 3
    snow.velocity = 40
    snow.velocityRange = 20
    snow.emissionLongitude = .pi / 2
    snow.emissionRange = .pi / 4
    snow.yAcceleration = 9
    snow.scaleRange = 0.5
    snow.scaleSpeed = -0.05
    snow.spinRange = 2
    snow.alphaSpeed = -0.2
    snow.redRange = 0.4
    snow.blueSpeed = -0.3
    let container = CAEmitterCell()
    container.birthRate = 5
    container.lifetime = 0.5
    container.emitterCells = [snow]
    let child = CAEmitterCell()
    child.name = "child"
    child.contents = spark
    child.birthRate = 4
    child.lifetime = 0.8
    child.velocity = 30
    child.emissionRange = .pi
    let sparks = CAEmitterCell()
    sparks.name = "sparks"
    sparks.contents = spark
    sparks.birthRate = 6
    sparks.lifetime = 2
    sparks.lifetimeRange = 1
    sparks.velocity = 60
    sparks.emissionRange = .pi
    sparks.greenSpeed = 0.5
    sparks.emitterCells = [child]
    layer.emitterCells = [container, sparks]
    return layer
}

/// What `particles(at:)` should give at `t` from the records: those alive, evaluated, the newest `cap`.
private func evaluated(_ births: [EmitterParticleBirth], at t: CFTimeInterval, cap: Int) -> [EmitterParticle] {
    Array(births.compactMap { $0.particle(at: t) }.suffix(cap))
}

private func expectAgree(_ a: [EmitterParticle], _ b: [EmitterParticle], _ note: String) {
    #expect(a.map(\.id) == b.map(\.id), "\(note): ids")
    guard a.count == b.count else { return }
    for (p, q) in zip(a, b) {
        #expect(p.cellPath == q.cellPath && p.contents == q.contents && p.birthTime == q.birthTime, "\(note): \(p.id)")
        let d = [p.position.x - q.position.x, p.position.y - q.position.y, p.zPosition - q.zPosition, p.scale - q.scale,
                 p.rotation - q.rotation, p.color.red - q.color.red, p.color.green - q.color.green,
                 p.color.blue - q.color.blue, p.color.alpha - q.color.alpha].map { abs(Double($0)) }.max()!
        #expect(d < 1e-9, "\(note): particle \(p.id) differs by \(d)")
    }
}

@Suite("Emitter birth records")
struct EmitterBirthTests {
    @Test func recordsAliveAtRandomTimesAreTheParticles() {
        let clock = ManualClock(now: 0)
        SceneContext(clock: clock).run {
            let layer = busyEmitter()
            var random = SystemRandomNumberGenerator()
            var checked = 0
            for _ in 0..<40 {
                let t = Double.random(in: 0...20, using: &random)
                let births = layer.particleBirths(after: -.infinity, through: t)
                let particles = layer.particles(at: t)
                expectAgree(evaluated(births, at: t, cap: layer.maxParticles), particles, "t = \(t)")
                checked += particles.count
            }
            #expect(checked > 400)
        }
    }

    @Test func capacityKeepsTheNewestRecords() {
        let clock = ManualClock(now: 0)
        SceneContext(clock: clock).run {
            let layer = busyEmitter()
            layer.maxParticles = 7
            for t in stride(from: 0.5, through: 12, by: 0.77) {
                let particles = layer.particles(at: t)
                #expect(particles.count == min(7, layer.particleBirths(after: -.infinity, through: t).count))
                expectAgree(evaluated(layer.particleBirths(after: -.infinity, through: t), at: t, cap: 7), particles, "t = \(t)")
            }
        }
    }

    @Test func rangesAddUpToTheLiveRecords() {
        let clock = ManualClock(now: 0)
        SceneContext(clock: clock).run {
            let layer = busyEmitter()
            // Held as a frame loop holds them: the live ones at 3, then each tick's new births.
            var held = layer.particleBirths(after: -.infinity, through: 3)
            for step in 1...90 {
                let last = 3 + Double(step - 1) / 30, next = 3 + Double(step) / 30
                let born = layer.particleBirths(after: last, through: next)
                // Counted by the running count (§9.2): a birth's computed time may lie an ulp past the range's end.
                let outside = born.filter { !($0.birthTime > last && $0.birthTime <= next + 1e-9 && next - $0.birthTime < $0.lifetime) }
                #expect(outside.isEmpty, "\(outside.map { ($0.birthTime, $0.lifetime, $0.cellPath) }) in \(last)...\(next)")
                held = (held + born).filter { next - $0.birthTime < $0.lifetime }
            }
            let live = layer.particleBirths(after: -.infinity, through: 6)
            #expect(held.map(\.id) == live.map(\.id), "\(held.count) held, \(live.count) live")
            #expect(held == live)
            #expect(held.count > 20)
        }
    }

    @Test func animatedEmitterValuesAgree() {
        let clock = ManualClock(now: 0)
        let context = SceneContext(clock: clock)
        context.run {
            let layer = busyEmitter()
            let burst = CABasicAnimation(keyPath: "emitterCells.sparks.birthRate")
            burst.fromValue = 0
            burst.toValue = 120
            burst.duration = 2
            layer.add(burst, forKey: "burst")
            let drift = CABasicAnimation(keyPath: "emitterPosition")
            drift.fromValue = CGPoint(x: 0, y: 0)
            drift.toValue = CGPoint(x: 300, y: 200)
            drift.duration = 3
            layer.add(drift, forKey: "drift")
            let tint = CABasicAnimation(keyPath: "emitterCells.sparks.emitterCells.child.velocity")
            tint.fromValue = 0
            tint.toValue = 200
            tint.duration = 2.5
            layer.add(tint, forKey: "child")
            clock.advance(by: 4)
            context.advance()
            for t in stride(from: 0.1, through: 4, by: 0.37) {
                let particles = layer.particles(at: t)
                expectAgree(evaluated(layer.particleBirths(after: -.infinity, through: t), at: t, cap: layer.maxParticles), particles, "t = \(t)")
            }
            let live = layer.particleBirths(after: -.infinity, through: 1.9)
            #expect(live.filter { $0.cellPath == [1] }.count > 40)
        }
    }

    @Test func revisionFollowsCellsAndTheirWindows() {
        let clock = ManualClock(now: 0)
        SceneContext(clock: clock).run {
            let layer = busyEmitter()
            let first = layer.particleBirthsRevision
            #expect(layer.particleBirthsRevision == first)
            layer.birthRate = 2  // recorded: later births only
            #expect(layer.particleBirthsRevision == first)
            layer.emitterCells![1].beginTime = 1
            let second = layer.particleBirthsRevision
            #expect(second != first)
            layer.emitterCells![1].emitterCells = []
            #expect(layer.particleBirthsRevision != second)
        }
    }
}

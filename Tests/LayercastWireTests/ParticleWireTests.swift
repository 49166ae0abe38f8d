import Foundation
import LayercastEngine
import LayercastJSON
import Testing
@testable import LayercastWire

// Emitter items on the wire (protocol.md, "Particles"): built from an emitter layer, quantised,
// capped, and carried through full frames and deltas exactly.
@Suite struct ParticleWireTests {
    /// A 400 × 400 scene whose emitter rains `rate` 10 × 10 images per second from a line
    /// across the top, straight down at 100 pt/s; built in a context at media time 0.
    final class Fixture {
        let clock = ManualClock()
        let context: SceneContext
        let root: CALayer
        let emitter: CAEmitterLayer
        let cell: CAEmitterCell
        let builder = DisplayListBuilder()

        init(rate: Float = 10, lifetime: Float = 10) {
            context = SceneContext(clock: clock)
            (root, emitter, cell) = context.run {
                let root = makeRoot()
                let emitter = makeLayer(CAEmitterLayer(), name: "emitter", frame: CGRect(x: 0, y: 0, width: 400, height: 400),
                                        in: root, background: nil)
                emitter.emitterPosition = CGPoint(x: 200, y: 0)
                emitter.emitterSize = CGSize(width: 400, height: 0)
                emitter.emitterShape = .line
                emitter.emitterMode = .outline
                let cell = CAEmitterCell()
                cell.contents = CGImage(named: "flake", width: 10, height: 10)
                cell.birthRate = rate
                cell.lifetime = lifetime
                cell.velocity = 100
                cell.emissionLongitude = .pi / 2
                cell.spinRange = 1
                cell.scale = 0.5
                emitter.emitterCells = [cell]
                return (root, emitter, cell)
            }
        }

        func build(at t: CFTimeInterval) -> DisplayList {
            clock.now = t
            context.advance(to: t)
            return context.run { builder.build(root, at: t) }
        }
    }

    @Test func emitterItemCarriesQuantisedParticlesOldestFirst() throws {
        let fixture = Fixture()
        let list = fixture.build(at: 1.05)
        let item = try #require(list.item(named: "emitter"))
        // 10 per second, the first 1/10 s after emission starts (engine-model.md §9.2): 10 by 1.05 s.
        #expect(item.particles.particles.count == 10)
        #expect(item.particles.images == [DrawParticleImage(image: "flake")])
        for particle in item.particles.particles {
            #expect(particle.x == Quantize.points(particle.x) && particle.y == Quantize.points(particle.y))
            #expect(particle.rotation == Quantize.radians(particle.rotation))
            #expect(particle.scale == 0.5 && particle.alpha == 1 && particle.image == 0)
        }
        // Oldest first: born every 0.1 s falling at 100 pt/s, so y = 100 × (1.05 − 0.1k).
        let ys = item.particles.particles.map(\.y)
        #expect(ys == ys.sorted(by: >))
        #expect(abs(ys[0] - 95) < 0.011 && abs(ys[9] - 5) < 0.011)
        #expect(item.particles.particles.map(\.id) == Array(1...10))
    }

    @Test func fullAndDeltasRoundTripThroughTextExactly() throws {
        let fixture = Fixture()
        var previous = fixture.build(at: 0)
        var client = try DisplayList(fullFrame: throughText(FrameMessage.full(previous, number: 0, time: 0)))
        #expect(client == previous)
        var sawMove = false, sawRemove = false
        for n in 1...180 {
            let t = Double(n) / 30
            let next = fixture.build(at: t)
            let delta = FrameDelta.from(previous, to: next)
            let text = try throughText(FrameMessage.delta(delta, number: n, time: t))
            let parsed = try FrameDelta(deltaFrame: text)
            client = parsed.applied(to: client)
            let full = try DisplayList(fullFrame: throughText(FrameMessage.full(next, number: n, time: t)))
            #expect(client == full, "frame \(n)")
            #expect(full == next)
            let change = parsed.set.first { $0.particles != nil }?.particles
            sawMove = sawMove || (change?.moved.contains(true) ?? false)
            sawRemove = sawRemove || !(change?.remove.isEmpty ?? true)
            previous = next
        }
        // Particles leave the 400 pt scene after 4 s at 100 pt/s, so by 6 s some were removed.
        #expect(sawMove && sawRemove)
    }

    @Test func movesAreWrittenAsFourNumbers() throws {
        let fixture = Fixture()
        let a = fixture.build(at: 1.0)
        let b = fixture.build(at: 1.0 + 1.0 / 30)
        let text = FrameMessage.delta(FrameDelta.from(a, to: b), number: 1, time: 1).serialized()
        let json = try JSONValue.parse(text)
        guard case .array(let set)? = json["set"], case .array(let moves)? = set.first?["pc"] else {
            Issue.record("no pc in \(text)")
            return
        }
        // Every particle only fell and spun: [id, x, y, r].
        #expect(!moves.isEmpty)
        for move in moves {
            guard case .array(let tuple) = move else { continue }
            #expect(tuple.count == 4)
        }
    }

    @Test func tintsGoInTheTableAndAlphaInTheTuple() throws {
        let fixture = Fixture()
        fixture.context.run {
            fixture.cell.color = CGColor(red: 0.600, green: 0.658, blue: 0.743, alpha: 0.5)
        }
        let item = try #require(fixture.build(at: 1.05).item(named: "emitter"))
        // 0.6 × 255 = 153 = 0x99, 0.658 × 255 = 167.8 → 0xa8, 0.743 × 255 = 189.5 → 0xbd (rounded).
        #expect(item.particles.images == [DrawParticleImage(image: "flake", tint: DrawColor(hex: "#99a8bd")!)])
        #expect(item.particles.particles.allSatisfy { $0.alpha == 0.5 })
        let text = FrameMessage.full(fixture.build(at: 1.05), number: 0, time: 1.05).serialized()
        #expect(text.contains(##""pimg":[["flake","#99a8bd"]]"##))
    }

    @Test func theRoomCapKeepsTheNewest() throws {
        let fixture = Fixture(rate: 100)
        fixture.builder.maxParticles = 25
        let item = try #require(fixture.build(at: 1.0).item(named: "emitter"))
        // 100 per second for 1 s makes 100; the cap keeps the 25 newest, the highest up.
        #expect(item.particles.particles.count == 25)
        #expect(item.particles.particles.allSatisfy { $0.y <= 25.01 })
        fixture.builder.maxParticles = 0
        #expect(fixture.build(at: 1.1).item(named: "emitter") == nil)
    }

    @Test func particlesOutsideTheSceneAreLeftOut() throws {
        let fixture = Fixture(lifetime: 20)
        let item = try #require(fixture.build(at: 10).item(named: "emitter"))
        // At 100 pt/s a particle's 5 × √2 / 2 pt drawn radius (10 pt image at scale 0.5) leaves
        // the 400 pt scene 4.035 s after birth: those born at 6.0, 6.1, … 10.0 s, 41 of them.
        #expect(item.particles.particles.count == 41)
    }

    @Test func idsStayWhileAParticleIsSent() throws {
        let fixture = Fixture()
        let a = try #require(fixture.build(at: 2.0).item(named: "emitter")).particles.particles
        let b = try #require(fixture.build(at: 2.5).item(named: "emitter")).particles.particles
        // The same particle keeps its id: id k in both frames is 50 pt further down in the later one.
        let later = Dictionary(uniqueKeysWithValues: b.map { ($0.id, $0) })
        for particle in a {
            let next = try #require(later[particle.id])
            #expect(abs(next.y - particle.y - 50) < 0.02)
        }
    }
}

import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// Emitter items on the wire (protocol.md, "Particles"): birth records built from an emitter layer,
// sent once, quantised, capped, carried through full frames and deltas exactly, and evaluating to
// the engine's particles.
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

        init(rate: Float = 10, lifetime: Float = 10, width: CGFloat = 400) {
            context = SceneContext(clock: clock)
            (root, emitter, cell) = context.run {
                let root = makeRoot()
                let emitter = makeLayer(CAEmitterLayer(), name: "emitter", frame: CGRect(x: 0, y: 0, width: 400, height: 400),
                                        in: root, background: nil)
                emitter.emitterPosition = CGPoint(x: 200, y: 0)
                emitter.emitterSize = CGSize(width: width, height: 0)
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

        /// The engine's particles of `layer` at media time `t` drawn inside the scene by the culling
        /// rule, mapped to the item's rect coordinates through `m` (the layer's map to the scene).
        func shown(_ layer: CAEmitterLayer, at local: CFTimeInterval, toScene m: CATransform3D) -> [EmitterParticle] {
            layer.particles(at: local).filter { p in
                guard Quantize.linear(Double(p.scale)) > 0, Quantize.fraction(Double(p.color.alpha)) > 0 else { return false }
                let x = m.m11 * p.position.x + m.m21 * p.position.y + m.m41, y = m.m12 * p.position.x + m.m22 * p.position.y + m.m42
                let stretch = max(abs(m.m11), abs(m.m22))  // the tests' maps scale uniformly
                let r = 0.5 * (p.contents.width * p.contents.width + p.contents.height * p.contents.height).squareRoot() * p.scale * stretch
                return x + r > 0 && y + r > 0 && x - r < 400 && y - r < 400
            }
        }
    }

    /// Expects the client's records of `item` at `t` to draw every particle of `expected` (engine
    /// particles, positions offset by the bounds origin) within the quantisation of their records.
    static func expectDraws(_ item: DrawItem, at t: Double, _ expected: [EmitterParticle], origin: CGPoint = .zero,
                            _ note: String) {
        let states = item.births.states(at: t)
        var unmatched = states
        for p in expected {
            let x = Double(p.position.x - origin.x), y = Double(p.position.y - origin.y)
            guard let i = unmatched.firstIndex(where: { abs($0.x - x) < 0.1 && abs($0.y - y) < 0.1 }) else {
                Issue.record("\(note): no record draws the particle at (\(x), \(y))")
                continue
            }
            let s = unmatched.remove(at: i)
            #expect(abs(s.scale - Double(p.scale)) < 1e-3 && abs(s.alpha - Double(p.color.alpha)) < 3e-3, "\(note)")
            #expect(abs(s.rotation - Double(p.rotation)) < 0.01, "\(note)")
        }
    }

    @Test func emitterItemCarriesQuantisedRecordsOldestFirst() throws {
        let fixture = Fixture()
        let list = fixture.build(at: 1.05)
        let item = try #require(list.item(named: "emitter"))
        // 10 per second, the first 1/10 s after emission starts (engine-model.md §9.2): 10 by 1.05 s.
        let records = item.births.records
        #expect(records.count == 10)
        #expect(item.births.kinds == [DrawParticleKind(id: 1, image: "flake")])
        #expect(item.births.clock == .identity)
        for (k, record) in records.enumerated() {
            #expect(record.birth == Quantize.fraction(0.1 * Double(k + 1)))
            #expect(record.lifetime == 10 && record.kind == 1 && record.scale == 0.5 && record.alpha == 1)
            #expect(record.y == 0 && abs(record.vy - 100) < 0.011 && abs(record.vx) < 0.011)
            #expect(record.x == Quantize.points(record.x) && record.spin == Quantize.radians(record.spin))
        }
        #expect(records.map(\.id) == Array(1...10))
        // Evaluated at the frame's t: y = 100 × (1.05 − 0.1k), oldest (lowest) first.
        let ys = item.births.states(at: 1.05).map(\.y)
        #expect(abs(ys[0] - 95) < 0.011 && abs(ys[9] - 5) < 0.011)
        Self.expectDraws(item, at: 1.05, fixture.shown(fixture.emitter, at: 1.05, toScene: .identity), "1.05")
    }

    @Test func recordsAreSentOnceAndDeltasRoundTripThroughTextExactly() throws {
        let fixture = Fixture(lifetime: 5)
        var previous = fixture.build(at: 0)
        var client = try DisplayList(fullFrame: throughText(FrameMessage.full(previous, number: 0, time: 0)))
        #expect(client == previous)
        var sent = Set<Int>(), shown = Set<UInt64>()
        for n in 1...240 {
            let t = Double(n) / 30
            let next = fixture.build(at: t)
            let delta = FrameDelta.from(previous, to: next)
            let text = try throughText(FrameMessage.delta(delta, number: n, time: t))
            let parsed = try FrameDelta(deltaFrame: text)
            client = parsed.applied(to: client)
            let full = try DisplayList(fullFrame: throughText(FrameMessage.full(next, number: n, time: t)))
            #expect(client == full, "frame \(n)")
            #expect(full == next)
            for record in parsed.set.compactMap(\.births).flatMap(\.append) + parsed.add.flatMap(\.births.records) {
                #expect(sent.insert(record.id).inserted, "record \(record.id) sent twice")
            }
            // Particles fall off the 400 pt scene after about 4 s: dropped then, before their death at 5 s.
            #expect(parsed.set.allSatisfy { $0.births?.kinds == nil && $0.births?.clock == nil })
            let expected = fixture.shown(fixture.emitter, at: t, toScene: .identity)
            for particle in expected { shown.insert(particle.id) }
            Self.expectDraws(client.item(named: "emitter") ?? DrawItem(id: 0), at: t, expected, "frame \(n)")
            previous = next
        }
        // 10 a second for 8 s, each sent once, when it first shows.
        #expect(sent.count == shown.count && sent.count == 80, "\(sent.count) sent, \(shown.count) shown")
        #expect(client.item(named: "emitter")!.births.records.count <= 41)
    }

    @Test func aDeltaFromAnyEarlierFrameGivesTheNewest() throws {
        let fixture = Fixture(rate: 30, lifetime: 3)
        var lists: [DisplayList] = []
        for n in 0..<150 { lists.append(fixture.build(at: Double(n) / 30)) }
        let newest = lists.last!
        for base in stride(from: 0, to: 149, by: 7) {
            let delta = FrameDelta.from(lists[base], to: newest)
            let parsed = try FrameDelta(deltaFrame: throughText(FrameMessage.delta(delta, number: 149, time: newest.time, base: base)))
            #expect(parsed.applied(to: lists[base]) == newest, "from frame \(base)")
        }
    }

    @Test func alphaAndColourGoInTheRecord() throws {
        let fixture = Fixture()
        fixture.context.run {
            fixture.cell.color = CGColor(red: 0.600, green: 0.658, blue: 0.743, alpha: 0.5)
            fixture.cell.alphaSpeed = -0.1
            fixture.cell.redSpeed = 0.25
        }
        let item = try #require(fixture.build(at: 1.05).item(named: "emitter"))
        // 0.6 × 255 = 153 = 0x99, 0.658 × 255 = 167.8 → 0xa8, 0.743 × 255 = 189.5 → 0xbd (rounded).
        #expect(item.births.records.allSatisfy { $0.alpha == 0.5 && $0.color == DrawColor(hex: "#99a8bd")! })
        #expect(item.births.kinds == [DrawParticleKind(id: 1, image: "flake", alphaSpeed: -0.1, redSpeed: 0.25)])
        let text = FrameMessage.full(fixture.build(at: 1.05), number: 0, time: 1.05).serialized()
        #expect(text.contains(##""pk":[[1,"flake",0,0,0,-0.1,0.25]]"##))
        #expect(text.contains(##",0.5,"#99a8bd"]"##))
    }

    @Test func theRoomCapEvictsTheOldest() throws {
        let fixture = Fixture(rate: 100)
        fixture.builder.maxParticles = 25
        let first = try #require(fixture.build(at: 1.0).item(named: "emitter"))
        // 100 per second for 1 s makes 100; the cap keeps the 25 newest, the highest up.
        #expect(first.births.records.count == 25)
        #expect(first.births.states(at: 1).allSatisfy { $0.y <= 25.01 })
        let list = fixture.build(at: 1.1)
        let delta = FrameDelta.from(DisplayList(items: [first], time: 1), to: list)
        let births = try #require(delta.set.first?.births)
        // 10 more born: the 10 oldest go by `pbr`.
        #expect(births.append.count == 10 && births.remove == first.births.records.prefix(10).map(\.id))
        fixture.emitter.maxParticles = 5
        #expect(fixture.build(at: 1.2).item(named: "emitter")?.births.records.count == 5)
        fixture.builder.maxParticles = 0
        #expect(fixture.build(at: 1.3).item(named: "emitter") == nil)
    }

    @Test func particlesNeverOnScreenAreNeverSent() throws {
        // The line is 1200 pt wide over a 400 pt scene: two thirds of the flakes never show.
        let fixture = Fixture(rate: 30, lifetime: 20, width: 1200)
        var ids = Set<Int>(), engineIDs = Set<UInt64>()
        for n in 0...300 {
            let t = Double(n) / 30
            let list = fixture.build(at: t)
            for record in list.item(named: "emitter")?.births.records ?? [] { ids.insert(record.id) }
            let shown = fixture.context.run { fixture.shown(fixture.emitter, at: t, toScene: .identity) }
            for particle in shown { engineIDs.insert(particle.id) }
            Self.expectDraws(list.item(named: "emitter") ?? DrawItem(id: 0), at: t, shown, "frame \(n)")
        }
        // Born at x uniform in −400…800: about a third show. Each one that shows is sent, once.
        #expect(ids.count > 60 && ids.count < 140)
        #expect(ids.count == engineIDs.count)
    }

    @Test func aMovingEmitterKeepsItsRecordsAndShowsWhatComesIntoView() throws {
        let fixture = Fixture(rate: 20, lifetime: 20, width: 1200)
        fixture.context.run {
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.fromValue = 200
            slide.toValue = 600
            slide.duration = 4
            fixture.emitter.add(slide, forKey: "slide")
        }
        var previous = fixture.build(at: 0)
        var client = previous
        for n in 1...180 {
            let t = Double(n) / 30
            let next = fixture.build(at: t)
            client = FrameDelta.from(previous, to: next).applied(to: client)
            #expect(client == next)
            let m = fixture.context.run { CATransform3DMakeTranslation(fixture.emitter.presentation()!.position.x - 200, 0, 0) }
            Self.expectDraws(client.item(named: "emitter") ?? DrawItem(id: 0), at: t, fixture.shown(fixture.emitter, at: t, toScene: m),
                             "frame \(n)")
            previous = next
        }
    }

    @Test func opacityChangesSendNoRecords() throws {
        let fixture = Fixture()
        let a = fixture.build(at: 2)
        fixture.context.run {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            fixture.emitter.opacity = 0.5
            CATransaction.commit()
        }
        let b = fixture.build(at: 2)
        let delta = FrameDelta.from(a, to: b)
        #expect(a.item(named: "emitter")?.births == b.item(named: "emitter")?.births)
        #expect(delta.set.count == 1 && delta.set[0].births == nil && delta.set[0].fields == [.opacity(0.5)])
    }

    @Test func masksToBoundsOnTheParentKeepsTheRecordsFlowing() throws {
        let fixture = Fixture()
        let clip = fixture.context.run {
            let clip = makeLayer(CALayer(), name: "clip", frame: CGRect(x: 0, y: 0, width: 400, height: 200), in: fixture.root)
            clip.masksToBounds = true
            clip.addSublayer(fixture.emitter)
            return clip
        }
        _ = clip
        let a = fixture.build(at: 1)
        let b = fixture.build(at: 1.5)
        #expect(a.item(named: "clip")?.group?.clips == true)
        let delta = FrameDelta.from(a, to: b)
        #expect(delta.set.first { $0.id == a.item(named: "emitter")!.id }?.births?.append.count == 5)
        #expect(delta.applied(to: a) == b)
    }

    @Test func replicatorCopiesRunTheirOwnClocks() throws {
        let fixture = Fixture()
        fixture.context.run {
            let replicator = makeLayer(CAReplicatorLayer(), name: "rep", frame: CGRect(x: 0, y: 0, width: 400, height: 400),
                                       in: fixture.root, background: nil)
            replicator.instanceCount = 3
            replicator.instanceDelay = 0.25
            replicator.instanceColor = CGColor(red: 1, green: 0.5, blue: 1, alpha: 1)
            replicator.instanceGreenOffset = -0.25
            replicator.addSublayer(fixture.emitter)
        }
        let list = fixture.build(at: 3)
        let copies = list.items.filter { $0.name == "emitter" }
        #expect(copies.map(\.births.clock) == [0, -0.25, -0.5].map { DrawParticleClock(rate: 1, offset: $0) })
        // Copy k runs k × 0.25 s behind: its newest record was born 0.25 s earlier, green × 0.5, 0.25.
        #expect(copies.map { $0.births.records.last!.birth } == [3, 2.7, 2.5])
        #expect(copies.map { $0.births.records.last!.color.green } == [128, 64, 0])
        let next = fixture.build(at: 3.5)
        #expect(FrameDelta.from(list, to: next).applied(to: list) == next)
        #expect(next.items.filter { $0.name == "emitter" }.map(\.births.clock) == copies.map(\.births.clock))
    }

    @Test func timeGoingBackwardsOrNewCellsStartAfresh() throws {
        let fixture = Fixture()
        let late = fixture.build(at: 5)
        let early = fixture.build(at: 3)
        let fresh = Fixture().build(at: 3)
        let item = try #require(early.item(named: "emitter")), reference = try #require(fresh.item(named: "emitter"))
        #expect(item.births.records.map(\.birth) == reference.births.records.map(\.birth))
        // New ids, never reused: the old records all go.
        #expect(Set(item.births.records.map(\.id)).isDisjoint(with: late.item(named: "emitter")!.births.records.map(\.id)))
        let delta = FrameDelta.from(late, to: early)
        #expect(delta.applied(to: late) == early)
        let cell = CAEmitterCell()
        fixture.context.run {
            cell.contents = CGImage(named: "dot", width: 4, height: 4)
            cell.birthRate = 2
            cell.lifetime = 10
            fixture.emitter.emitterCells = [cell]
        }
        let replaced = fixture.build(at: 4)
        let change = try #require(FrameDelta.from(early, to: replaced).set.first?.births)
        #expect(Set(change.remove) == Set(item.births.records.map(\.id)))
        #expect(change.kinds == [DrawParticleKind(id: 2, image: "dot")])
    }

    @Test func badRecordsAreRefused() throws {
        for bad in [##"[1,1,0,1,0,0,0,0,1]"##, ##"[1,1,0,1,0,0,0,0,1,0,1,"#ffffff80"]"##, ##"[1,1,0,1,0,0,0,0,1,0,"x"]"##,
                    ##"[1.5,1,0,1,0,0,0,0,1,0]"##] {
            let json = try JSONValue.parse(##"{"type":"frame","n":0,"t":0,"full":true,"items":[{"id":1,"pb":[\##(bad)]}]}"##)
            #expect(throws: ProtocolError.self) { try DisplayList(fullFrame: json) }
        }
        let json = try JSONValue.parse(##"{"type":"frame","n":1,"t":0,"full":false,"set":[{"id":1,"pk":[[1]]}]}"##)
        #expect(throws: ProtocolError.self) { try FrameDelta(deltaFrame: json) }
    }
}

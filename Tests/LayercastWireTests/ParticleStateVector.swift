import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// Tests/vectors/particle-states.json (protocol.md, "Particles"): emitter items built by
// DisplayListBuilder from engine emitters, and the particles their records draw at display times
// drawn from a fixed seed. The JavaScript and Python evaluators must give the same states within
// one quantisation step; this suite checks the Swift one against the committed file.

enum ParticleStateVector {
    /// SplitMix64, so the file is the same on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Case {
        var note: String
        var item: DrawItem
        var at: [Double]
    }

    /// A state as the file writes it: `[id, x, y, scale, rotation, alpha, "#rrggbb"]`, rounded.
    static func tuple(_ s: DrawParticleState) -> JSONValue {
        func byte(_ x: Double) -> UInt8 { UInt8((x * 255).rounded()) }
        let colour = DrawColor(red: byte(s.red), green: byte(s.green), blue: byte(s.blue))
        return .array([.number(Double(s.id)), .number(Quantize.points(s.x)), .number(Quantize.points(s.y)),
                       .number(Quantize.linear(s.scale)), .number(Quantize.radians(s.rotation)),
                       .number(Quantize.fraction(s.alpha)), .string(colour.hex)])
    }

    /// An emitter under `root` (400 × 400) built at media time `t` with `configure`, its item taken
    /// (copy `copy` of a replicator, when there is one).
    static func built(at t: Double, name: String = "emitter", copy: Int = 0,
                      _ configure: (CALayer) -> Void) -> DrawItem {
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let root = context.run {
            let root = makeRoot()
            configure(root)
            return root
        }
        let builder = DisplayListBuilder()
        var list = DisplayList()
        // Built every frame from 0, as a room does.
        for n in 0...Int((t * 30).rounded()) {
            clock.now = Double(n) / 30
            context.advance(to: clock.now)
            list = context.run { builder.build(root, at: clock.now) }
        }
        return list.items.filter { $0.name == name }[copy]
    }

    static func cell(_ image: String, size: Int, _ configure: (CAEmitterCell) -> Void) -> CAEmitterCell {
        let cell = CAEmitterCell()
        cell.contents = CGImage(named: image, width: CGFloat(size), height: CGFloat(size))
        configure(cell)
        return cell
    }

    static var cases: [Case] {
        var random = Seeded(state: 37)
        func times(around t: Double, count: Int = 6) -> [Double] {
            (0..<count).map { _ in Quantize.time(Double.random(in: t - 0.3 ... t + 2.5, using: &random)) }
        }
        let snow = built(at: 4) { root in
            let layer = makeLayer(CAEmitterLayer(), name: "emitter", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root, background: nil)
            layer.emitterPosition = CGPoint(x: 200, y: -10)
            layer.emitterSize = CGSize(width: 500, height: 0)
            layer.emitterShape = .line
            layer.emitterCells = [cell("snowflake", size: 32) { c in
                c.birthRate = 8; c.lifetime = 30; c.velocity = -10; c.velocityRange = 10; c.yAcceleration = 10
                c.emissionLongitude = -.pi / 2; c.emissionRange = .pi / 4; c.spinRange = .pi / 2; c.scale = 0.2; c.scaleRange = 0.1
            }]
        }
        let colours = built(at: 2.5) { root in
            let layer = makeLayer(CAEmitterLayer(), name: "emitter", frame: CGRect(x: 50, y: 60, width: 300, height: 300), in: root, background: nil)
            layer.bounds.origin = CGPoint(x: -20, y: 10)
            layer.emitterPosition = CGPoint(x: 150, y: 150)
            layer.emitterShape = .circle
            layer.emitterSize = CGSize(width: 40, height: 0)
            layer.renderMode = .additive
            layer.emitterCells = [cell("spark", size: 12) { c in
                c.birthRate = 12; c.lifetime = 2; c.lifetimeRange = 1.5; c.velocity = 80; c.emissionRange = .pi
                c.xAcceleration = -15; c.yAcceleration = 30; c.scale = 0.6; c.scaleSpeed = -0.3; c.spin = 2; c.spinRange = 4
                c.color = CGColor(red: 1, green: 0.6, blue: 0.2, alpha: 1.2); c.redRange = 0.4; c.greenRange = 0.4
                c.alphaSpeed = -0.6; c.redSpeed = -0.2; c.greenSpeed = 0.35; c.blueSpeed = 0.5
            }]
        }
        let copy = built(at: 3, copy: 2) { root in
            let replicator = makeLayer(CAReplicatorLayer(), name: "rep", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root, background: nil)
            replicator.instanceCount = 3
            replicator.instanceDelay = 0.4
            replicator.instanceTransform = CATransform3DMakeTranslation(0, 50, 0)
            replicator.instanceColor = CGColor(red: 1, green: 0.8, blue: 0.5, alpha: 1)
            let layer = makeLayer(CAEmitterLayer(), name: "emitter", frame: CGRect(x: 0, y: 0, width: 400, height: 300), in: replicator, background: nil)
            layer.speed = 1.5
            layer.emitterPosition = CGPoint(x: 200, y: 0)
            layer.emitterCells = [cell("heart", size: 20) { c in
                c.birthRate = 6; c.lifetime = 3; c.velocity = 60; c.emissionLongitude = .pi / 2; c.emissionRange = .pi / 6
                c.alphaSpeed = -0.3; c.scale = 0.5
            }]
        }
        let fireworks = built(at: 2) { root in
            let layer = makeLayer(CAEmitterLayer(), name: "emitter", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root, background: nil)
            layer.emitterPosition = CGPoint(x: 200, y: 400)
            let burst = cell("spark", size: 8) { c in
                c.birthRate = 40; c.lifetime = 0.8; c.velocity = 100; c.emissionRange = .pi; c.alphaSpeed = -1.2; c.scale = 0.4
                c.color = CGColor(red: 0.9, green: 0.3, blue: 0.9, alpha: 1)
            }
            let rocket = cell("rocket", size: 10) { c in
                c.birthRate = 2; c.lifetime = 1.2; c.velocity = 300; c.emissionLongitude = -.pi / 2; c.yAcceleration = 150
                c.emissionRange = 0.3; c.emitterCells = [burst]
            }
            layer.emitterCells = [rocket]
        }
        return [
            Case(note: "snow: acceleration, spin, scale ranges; flakes above the screen wait to show", item: snow, at: times(around: 4)),
            Case(note: "sparks: every speed (ax, ay, ds, da, dr, dg, db), alpha above 1, colours, a moved bounds origin",
                 item: colours, at: times(around: 2.5)),
            Case(note: "a replicator's third copy of an emitter at speed 1.5 (pt), its colour multiplied", item: copy, at: times(around: 3)),
            Case(note: "fireworks: sub-cells born where their parent is", item: fireworks, at: times(around: 2)),
        ]
    }

    static var text: String {
        let about = "emitter items built by DisplayListBuilder and the particles their records draw at display times d: "
            + "[id, x, y, scale, rotation, alpha, \"#rrggbb\"] in drawing order, x and y to 1e-2, scale 1e-4, rotation and alpha 1e-3, colour 8 bits"
        var lines = [#"{"vector":"particle-states","about":\#(JSONValue.string(about).serialized()),"cases":["#]
        let all = cases
        for (index, entry) in all.enumerated() {
            let states = JSONValue.array(entry.at.map { d in .array(entry.item.births.states(at: d).map(tuple)) })
            lines.append(#"{"note":\#(JSONValue.string(entry.note).serialized()),"item":\#(entry.item.json.serialized()),"#)
            lines.append(#" "at":\#(JSONValue.array(entry.at.map { .number($0) }).serialized()),"#)
            lines.append(#" "states":\#(states.serialized())}\#(index == all.count - 1 ? "" : ",")"#)
        }
        lines.append("]}")
        return lines.joined(separator: "\n") + "\n"
    }
}

@Suite("Particle states")
struct ParticleStateVectorTests {
    /// The committed cases, read back through `DrawItem`, evaluate to their states with the Swift
    /// evaluator; and every case draws something at most of its times.
    @Test func swiftEvaluatorGivesTheCommittedStates() throws {
        let text = try String(contentsOf: GoldenVectorTests.folder.appendingPathComponent("particle-states.json"), encoding: .utf8)
        let cases = try #require(try JSONValue.parse(text)["cases"]?.arrayValue)
        #expect(cases.count == 4)
        for entry in cases {
            let item = try DrawItem(FieldReader(entry["item"], path: "item"))
            let at = try #require(entry["at"]?.arrayValue).compactMap(\.doubleValue)
            let states = try #require(entry["states"]?.arrayValue)
            #expect(at.count == states.count)
            for (d, expected) in zip(at, states) {
                #expect(JSONValue.array(item.births.states(at: d).map(ParticleStateVector.tuple)) == expected, "at \(d)")
            }
            #expect(states.filter { ($0.arrayValue?.count ?? 0) > 0 }.count >= at.count / 2)
        }
    }
}

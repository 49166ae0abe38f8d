import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// The golden vectors of Tests/vectors/ (Tests/vectors/README.md): sequences of `frame` messages
// as the encoder writes them, each with the display list a client has after applying it. The
// three decoders check them: this suite (FrameDelta), Tests/js/vectors.test.mjs (frame-store.js
// and particle-delta.js) and Tests/integration/test_vectors.py (layercast_client.py).
//
// The files are made here: `LAYERCAST_WRITE_VECTORS=1 swift test --filter GoldenVectorTests`
// writes them; without it the suite fails when the committed files are not exactly what the
// encoder makes now, so they cannot drift from it.

@Suite("Golden vectors")
struct GoldenVectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../vectors")

    @Test func committedVectorsAreWhatTheEncoderWritesNow() throws {
        let write = ProcessInfo.processInfo.environment["LAYERCAST_WRITE_VECTORS"] == "1"
        for (name, text) in Vectors.files {
            let url = Self.folder.appendingPathComponent("\(name).json")
            if write {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
                continue
            }
            let committed = try? String(contentsOf: url, encoding: .utf8)
            #expect(committed == text, """
                Tests/vectors/\(name).json is not what the encoder writes now: \
                run LAYERCAST_WRITE_VECTORS=1 swift test --filter GoldenVectorTests and commit the files
                """)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Vectors.files.map { "\($0.name).json" }), "a vector file no generator writes")
    }

    /// The Swift decoder (`DisplayList(fullFrame:)`, `FrameDelta(deltaFrame:)` and `applied`)
    /// turns every committed message into the list that follows it, down to the JSON of each item.
    @Test(arguments: Vectors.all.map(\.name))
    func swiftDecoderAppliesTheCommittedVector(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("\(name).json"), encoding: .utf8)
        let steps = try #require(try JSONValue.parse(text)["steps"]?.arrayValue)
        #expect(!steps.isEmpty)
        var list: DisplayList?
        var number = -1
        for (index, step) in steps.enumerated() {
            let message = try #require(step["message"])
            let expected = try #require(step["items"])
            if message["full"]?.boolValue == true {
                list = try DisplayList(fullFrame: message)
            } else {
                let current = try #require(list, "step \(index): a delta before any full frame")
                let range = try #require(FrameMessage.deltaRange(message), "step \(index): no delta range")
                #expect(range.contains(number), "\(name) step \(index): the delta \(range) does not apply to frame \(number)")
                list = try FrameDelta(deltaFrame: message).applied(to: current)
            }
            number = try #require(message["n"]?.intValue)
            let items = JSONValue.array(list?.items.map(\.json) ?? [])
            #expect(items == expected, "\(name) step \(index)")
            #expect(list?.paths == (try DisplayList.paths(FieldReader(step["paths"], path: "paths"))), "\(name) step \(index) paths")
            let parsed = try DisplayList(fullFrame: ["type": "frame", "n": 0, "t": message["t"] ?? 0, "full": true, "items": expected,
                                                     "paths": step["paths"] ?? .array([])])
            #expect(list == parsed, "\(name) step \(index)")
        }
    }

    /// Between them the vectors use every item field (set, and returned to its default with
    /// `null`), every part of a delta and of a particle delta, both forms of `pc`, projective
    /// matrices, translucent colours, every text alignment and several gravities.
    @Test func vectorsCoverEveryKind() throws {
        var seen = Set<String>()
        func note(_ key: String) { seen.insert(key) }
        for vector in Vectors.all {
            for step in vector.steps {
                let message = step.message
                note(message["full"]?.boolValue == true ? "full" : "delta")
                for key in ["b", "set", "add", "remove", "order", "paths", "unpaths"] where message[key] != nil {
                    note(message["full"]?.boolValue == true ? "full.\(key)" : "delta.\(key)")
                }
                var items = (message["items"]?.arrayValue ?? []) + (message["add"]?.arrayValue ?? [])
                for entry in message["set"]?.arrayValue ?? [] {
                    items.append(entry)
                    for (key, value) in entry.objectValue ?? JSONObject() {
                        if value.isNull { note("null.\(key)") }
                        if ["pk", "pt", "pbr", "pba"].contains(key) { note(key) }
                        if key == "pba" { note("pba.\(value.arrayValue?.count ?? 0 > 1 ? "many" : "one")") }
                    }
                }
                for item in items {
                    for (key, value) in item.objectValue ?? JSONObject() where !value.isNull {
                        note("item.\(key)")
                        if key == "m", value.arrayValue?.count == 9 { note("m.projective") }
                        if key == "text", let align = value["align"]?.stringValue { note("align.\(align)") }
                        if key == "g", let gravity = value.stringValue { note("g.\(gravity)") }
                        if ["bg", "bc"].contains(key), value.stringValue?.count == 9 { note("colour.alpha") }
                        if key == "grad", let type = value["type"]?.stringValue { note("grad.\(type)") }
                        if key == "grp" {
                            if value["clip"] != nil { note("grp.clip") }
                            if value["mask"] != nil { note("grp.mask") }
                        }
                        if key == "pb" || key == "pba" {
                            for tuple in value.arrayValue ?? [] { note("record.\(tuple.arrayValue?.count ?? 0)") }
                        }
                    }
                }
            }
        }
        var wanted: Set<String> = ["full", "delta", "delta.b", "delta.set", "delta.add", "delta.remove", "delta.order",
                                   "pk", "pt", "null.pt", "pbr", "pba", "pba.one", "pba.many", "m.projective", "colour.alpha",
                                   "record.10", "record.11", "record.12", "g.resizeAspect", "g.center", "g.topLeft",
                                   "full.paths", "delta.paths", "delta.unpaths", "grad.axial", "grad.radial", "grad.conic",
                                   "grp.clip", "grp.mask"]
        for key in DrawField.Key.allCases {
            wanted.insert("item.\(key.rawValue)")
            wanted.insert("null.\(key.rawValue)")
        }
        wanted.formUnion(["item.id", "item.pk", "item.pt", "item.pb"])
        for align in DrawText.alignments { wanted.insert("align.\(align.rawValue)") }
        #expect(wanted.subtracting(seen).isEmpty, "not covered: \(wanted.subtracting(seen).sorted())")
    }
}

/// One vector: a sequence of display lists, each sent as the server would send it (a full frame
/// first and wherever `full` says, else the delta from the list before).
struct Vector {
    struct Step {
        var note: String
        var message: JSONValue
        var items: DisplayList
    }

    var name: String
    var about: String
    var steps: [Step]

    /// `lists`: each with a note and whether it goes as a full frame; frame `n` counts from 1 and `t` from 0,
    /// at `fps` frames a second. `quiet[i]` ticks that changed nothing, and so were not sent
    /// (`sparse`), come before step `i`: its delta then applies from the step before it (`b`).
    init(name: String, about: String, fps: Double = 30, quiet: [Int: Int] = [:],
         _ lists: [(note: String, full: Bool, list: DisplayList)]) {
        self.name = name
        self.about = about
        let encoder = FrameEncoder()
        var previous: DisplayList?
        var sent = 0
        steps = []
        for (index, entry) in lists.enumerated() {
            let n = sent + (quiet[index] ?? 0) + 1, t = Double(n - 1) / fps
            // The list holds at its frame's t (a builder's list is built at that t already).
            var list = entry.list
            list.time = Quantize.time(t)
            let message = if let previous, !entry.full {
                encoder.delta(FrameDelta.from(previous, to: list), number: n, time: t, base: sent).value
            } else {
                encoder.full(list, number: n, time: t).value
            }
            steps.append(Step(note: entry.note, message: message, items: list))
            previous = list
            sent = n
        }
    }

    /// The file: one line for the head, two a step (the message; the list after it).
    var text: String {
        var lines = [#"{"vector":\#(JSONValue.string(name).serialized()),"about":\#(JSONValue.string(about).serialized()),"steps":["#]
        for (index, step) in steps.enumerated() {
            let items = JSONValue.array(step.items.items.map(\.json)).serialized()
            lines.append(#"{"note":\#(JSONValue.string(step.note).serialized()),"message":\#(step.message.serialized()),"#)
            let paths = step.items.paths.isEmpty ? "" : #","paths":\#(DisplayList.tree(step.items.paths).value.serialized())"#
            lines.append(#" "items":\#(items)\#(paths)}\#(index == steps.count - 1 ? "" : ",")"#)
        }
        lines.append("]}")
        return lines.joined(separator: "\n") + "\n"
    }
}

enum Vectors {
    static let all: [Vector] = [items, births, scene, shapes]
    /// Every file of Tests/vectors/ by name, with its text.
    static var files: [(name: String, text: String)] {
        all.map { ($0.name, $0.text) } + [("particle-states", ParticleStateVector.text)]
    }

    static let cream = DrawColor(red: 0xfd, green: 0xf6, blue: 0xec)
    static let white = DrawColor(red: 255, green: 255, blue: 255)
    static let black = DrawColor(red: 0, green: 0, blue: 0)
    static let gold = DrawColor(red: 0xff, green: 0xd7, blue: 0x00)
    static let red = DrawColor(red: 0xe8, green: 0x3a, blue: 0x2f)
    static let veil = DrawColor(red: 0x1d, green: 0x1d, blue: 0x1f, alpha: 0x80)

    static func moved(_ x: Double, _ y: Double, scale: Double = 1) -> DrawMatrix {
        DrawMatrix(a: scale, b: 0, c: 0, d: scale, tx: x, ty: y)
    }

    /// Hand-built lists with every field of a draw item, changed, returned to its default,
    /// removed, added and reordered.
    static var items: Vector {
        let background = DrawItem(id: 1, width: 414, height: 736, background: cream)
        var card = DrawItem(id: 2, name: "card", matrix: moved(20, 100), width: 374, height: 200, opacity: 0.85,
                            background: white, borderColor: veil, borderWidth: 1.5, cornerRadius: 12,
                            shadow: DrawShadow(color: black, opacity: 0.5, dx: 0, dy: 3, radius: 4))
        var coin = DrawItem(id: 3, name: "coin", matrix: moved(185, 300, scale: 0.5), width: 44, height: 44,
                            cornerRadius: 22, image: "coin", imageTint: DrawColor(red: 255, green: 128, blue: 51), gravity: .resizeAspect)
        var label = DrawItem(id: 4, name: "label", matrix: moved(107, 420), width: 200, height: 24,
                             text: DrawText(runs: [DrawTextRun(text: "+8", size: 17, weight: 0.4, color: gold),
                                                   DrawTextRun(text: " 金币 ✓ \"q\"", size: 15, color: white)],
                                            alignment: .center))
        let cover = DrawItem(id: 5, name: "cover",
                             matrix: DrawMatrix(a: 0.7071, b: -0.0123, c: 0, d: 1.0204, tx: 147.33, ty: 278.5,
                                                g: -0.0007071, h: 0.0000004),
                             width: 120, height: 180, image: "cover-walden", gravity: .resizeAspectFill)
        var flakes = DrawItem(id: 6, name: "flakes", width: 414, height: 736, births: DrawBirths(
            kinds: [DrawParticleKind(id: 1, image: "snowflake", ay: 10), DrawParticleKind(id: 2, image: "petal", alphaSpeed: -0.1)],
            records: [DrawParticleBirth(id: 1, kind: 1, birth: -20, lifetime: 120, x: 400.73, y: -10, vx: -3.2, vy: 8.5, scale: 0.2, spin: 0.25),
                      DrawParticleBirth(id: 2, kind: 1, birth: -19.5, lifetime: 120, x: 286.16, y: -10, vy: -10, scale: 0.2, spin: -0.5,
                                        alpha: 0.8),
                      DrawParticleBirth(id: 3, kind: 2, birth: -1, lifetime: 5, x: 157.02, y: 20.5, scale: 1, spin: 0.3,
                                        color: DrawColor(red: 0x99, green: 0xa8, blue: 0xbd))]))
        let first = DisplayList(items: [background, card, coin, label, cover, flakes])

        card.matrix = moved(20, 96.5)
        card.opacity = 0.9
        label.text = DrawText(runs: [DrawTextRun(text: "+12", size: 17, weight: 0.4, color: gold)], alignment: .center)
        coin.gravity = .center
        flakes.births.records.append(DrawParticleBirth(id: 4, kind: 1, birth: 0.02, lifetime: 120, x: 12, y: -4.4, scale: 0.2))
        let second = DisplayList(items: [background, card, coin, label, cover, flakes])

        card.background = nil
        card.borderColor = nil
        card.borderWidth = 0
        card.cornerRadius = 0
        coin.name = nil
        let toast = DrawItem(id: 7, name: "toast", matrix: moved(60, 40), width: 294, height: 30, opacity: 0.5,
                             background: veil, cornerRadius: 15,
                             text: DrawText(runs: [DrawTextRun(text: "Reconnecting…", size: 14, weight: 0.3, color: white)], alignment: .right),
                             shadow: DrawShadow(color: red, opacity: 0.25, dx: -1.5, dy: 2, radius: 0))
        let third = DisplayList(items: [background, card, coin, label, flakes, toast])

        card.shadow = nil
        card.matrix = .identity
        card.opacity = 1
        card.width = 0
        card.height = 0
        card.background = red
        coin.image = nil
        coin.imageTint = nil
        coin.gravity = .resize
        label.text = DrawText(runs: [DrawTextRun(text: "left", size: 12.5, weight: -0.4, color: veil)], alignment: .left)
        flakes.births.records.removeFirst()
        let fourth = DisplayList(items: [background, label, card, coin, flakes, toast])

        var badge = DrawItem(id: 8, name: "badge", matrix: moved(300, 20), width: 80, height: 20,
                             text: DrawText(runs: [DrawTextRun(text: "LIVE", size: 11, weight: 0.4, color: red)], alignment: .justified))
        let fifth = DisplayList(items: [background, badge, label, card, coin, flakes, toast])

        badge.text = DrawText(runs: [DrawTextRun(text: "LIVE", size: 11, weight: 0.4, color: red)], alignment: .natural)
        coin.image = "coin"
        coin.gravity = .topLeft
        let seventh = DisplayList(items: [background, badge, label, coin, toast])
        coin.name = "coin"
        label.text = nil
        label.background = white
        let eighth = DisplayList(items: [background, badge, label, coin, toast, cover])

        return Vector(name: "items", about: "hand-built lists: every draw-item field set, changed and returned to its default (null), items removed, added and reordered, an empty delta, a keepalive after ticks that changed nothing, and a full frame in the middle", quiet: [6: 29, 8: 5], [
            ("a full frame with every kind of item: plain, bordered with a translucent colour and a shadow, tinted image with gravity, two-run text, projective, emitter", true, first),
            ("fields change: matrix, opacity, text, gravity; a particle is born (pba)", false, second),
            ("fields return to their defaults (bg, bc, bw, cr, name: null); the cover goes; a text item with a shadow comes", false, third),
            ("more defaults (sh, m, o, s, img, it, g), a background comes back; the label moves back (order); a particle is evicted (pbr)", false, fourth),
            ("a new item in front of old ones (add and order)", false, fifth),
            ("nothing changes: an empty delta", false, fifth),
            ("29 ticks changed nothing and were not sent: a keepalive, an empty delta from the last frame sent (b)", false, fifth),
            ("a full frame again, as a client that skipped frames gets one", true, seventh),
            ("5 quiet ticks, then a delta from the full frame (b): a name comes back, a text goes (null), an item that left comes back", false, eighth),
        ])
    }

    /// Hand-built emitter items whose records change in every way a delta says (30 frames a second).
    static var births: Vector {
        let flake = DrawParticleKind(id: 1, image: "snowflake", ay: 10, scaleSpeed: -0.01)
        let petal = DrawParticleKind(id: 2, image: "petal", ax: -2.5, ay: 4, scaleSpeed: 0.05, alphaSpeed: -0.2,
                                     redSpeed: -0.1, greenSpeed: 0.25, blueSpeed: -0.5)
        let spark = DrawParticleKind(id: 3, image: "spark", alphaSpeed: -1)
        var snow = DrawItem(id: 1, name: "snow", matrix: moved(0, 10), width: 414, height: 736, opacity: 0.9,
                            shadow: DrawShadow(color: black, opacity: 0.2, dx: 0, dy: 1, radius: 2))
        snow.births = DrawBirths(kinds: [flake], records: [
            DrawParticleBirth(id: 1, kind: 1, birth: -3, lifetime: 120, x: 10, y: -10, vx: 1.5, vy: 20, scale: 0.2),
            DrawParticleBirth(id: 2, kind: 1, birth: -1, lifetime: 1.02, x: 110.5, y: 220.25, vy: -3.25, scale: 0.35, spin: -0.5),
            DrawParticleBirth(id: 3, kind: 1, birth: -0.5, lifetime: 60, x: 210, y: 320, scale: 0.2, spin: 3.1, alpha: 0.5),
        ])
        let first = DisplayList(items: [snow])

        snow.births.kinds = [flake, petal]
        snow.births.records.remove(at: 1)
        snow.births.records.insert(DrawParticleBirth(id: 4, kind: 2, birth: -2, lifetime: 10, x: 300, y: -5, vx: 12.5, vy: 30,
                                                     scale: 0.5, spin: 1, alpha: 1.25, color: DrawColor(red: 0x99, green: 0xa8, blue: 0xbd)),
                                   at: 1)
        snow.births.records.append(DrawParticleBirth(id: 5, kind: 1, birth: 0.033, lifetime: 120, x: 40, y: -10, vy: 12, scale: 0.2))
        let second = DisplayList(items: [snow])

        snow.births.records.remove(at: 0)
        snow.births.records.append(DrawParticleBirth(id: 6, kind: 2, birth: 0.05, lifetime: 3, x: 1, y: 2, vy: 5, scale: 1))
        let third = DisplayList(items: [snow])

        snow.births.clock = DrawParticleClock(rate: 1, offset: -0.25)
        snow.births.kinds = [petal, spark]
        snow.births.records = [DrawParticleBirth(id: 7, kind: 3, birth: -0.2, lifetime: 0.5, x: 50, y: 60, vx: -20, vy: -20, scale: 0.3),
                               DrawParticleBirth(id: 8, kind: 2, birth: -0.19, lifetime: 4, x: 51, y: 60, scale: 0.3, spin: -2)]
        let fourth = DisplayList(items: [snow])

        snow.births = DrawBirths()
        let fifth = DisplayList(items: [snow])

        snow.births = DrawBirths(kinds: [spark], clock: DrawParticleClock(rate: 0.5, offset: 1),
                                 records: [DrawParticleBirth(id: 9, kind: 3, birth: 1.05, lifetime: 2, x: 5, y: 5, scale: 0.1)])
        let sixth = DisplayList(items: [snow])

        var petals = DrawItem(id: 2, name: "petals", width: 414, height: 736)
        petals.births = DrawBirths(kinds: [petal], records: [
            DrawParticleBirth(id: 1, kind: 2, birth: 0.1, lifetime: 2, x: 5, y: 5, scale: 0.1, alpha: 0.999),
            DrawParticleBirth(id: 2, kind: 2, birth: 0.1, lifetime: 2, x: 6, y: 6, scale: 0.1),
        ])
        snow.births.clock = .identity
        snow.births.records = [DrawParticleBirth(id: 10, kind: 3, birth: 0.2, lifetime: 2, x: 5, y: 5, scale: 0.1)]
        let seventh = DisplayList(items: [petals, snow])

        return Vector(name: "births", about: "hand-built emitter items: particle records appended (pba, one born earlier inserted in drawing order), dropped by natural death (no bytes) and before it (pbr), the kind table and the clock changed and returned to [1, 0] (pt null), every record gone and back, a second emitter added", [
            ("a full frame: one emitter with three records (pk, pb), one of which dies before the next frame", true, first),
            ("one died (no bytes), a petal kind comes (pk) with a record born earlier, inserted before the newest, and one is born (pba)", false, second),
            ("one is dropped before its death (pbr), one is born", false, third),
            ("a new clock (pt) and table: every record replaced", false, fourth),
            ("every record is gone: the item has no pk, pt or pb", false, fifth),
            ("a record is born into an empty emitter running at half speed", false, sixth),
            ("a second emitter comes, in front of the first (add, order); the first's clock returns to [1, 0] (pt null)", false, seventh),
        ])
    }

    /// Lists built by `DisplayListBuilder` from an animated layer tree: moves, fades, a 3D turn
    /// with perspective, text, a shadow, an image and an emitter, layers added, removed,
    /// reordered, hidden and renamed.
    static var scene: Vector {
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let builder = DisplayListBuilder()
        var layers: [String: CALayer] = [:]
        let root = context.run {
            let root = makeRoot()
            root.sublayerTransform = perspective(800)
            for (index, name) in ["a", "b", "c"].enumerated() {
                let layer = makeLayer(CALayer(), name: name, frame: CGRect(x: 40 + 100 * CGFloat(index), y: 50, width: 60, height: 60), in: root)
                layer.borderWidth = 2
                layer.cornerRadius = 6
                layers[name] = layer
            }
            layers["b"]!.contents = CGImage(named: "coin", width: 44, height: 44)
            layers["b"]!.contentsGravity = .resizeAspect
            layers["b"]!.backgroundColor = nil
            let label = makeLayer(CATextLayer(), name: "label", frame: CGRect(x: 20, y: 300, width: 200, height: 30), in: root, background: nil)
            label.string = "score 0"
            label.fontSize = 17
            label.alignmentMode = .center
            label.shadowOpacity = 0.5
            label.shadowOffset = CGSize(width: 0, height: 2)
            layers["label"] = label
            let emitter = makeLayer(CAEmitterLayer(), name: "snow", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root, background: nil)
            emitter.emitterPosition = CGPoint(x: 200, y: 0)
            emitter.emitterSize = CGSize(width: 400, height: 0)
            emitter.emitterShape = .line
            emitter.emitterMode = .outline
            let cell = CAEmitterCell()
            cell.contents = CGImage(named: "snowflake", width: 10, height: 10)
            cell.birthRate = 6
            cell.lifetime = 1.2
            cell.velocity = 150
            cell.emissionLongitude = .pi / 2
            cell.spinRange = 1
            cell.scale = 0.5
            cell.alphaSpeed = -0.5
            emitter.emitterCells = [cell]

            let move = CABasicAnimation(keyPath: "position")
            move.toValue = CGPoint(x: 300, y: 250)
            move.duration = 0.8
            layers["a"]!.add(move, forKey: "move")
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.2
            fade.toValue = 1
            fade.duration = 0.5
            layers["b"]!.add(fade, forKey: "fade")
            let turn = CABasicAnimation(keyPath: "transform")
            turn.toValue = CATransform3DMakeRotation(.pi * 0.4, 0, 1, 0)
            turn.duration = 0.6
            turn.autoreverses = true
            layers["c"]!.add(turn, forKey: "turn")
            return root
        }

        var lists: [(note: String, full: Bool, list: DisplayList)] = []
        for frame in 0..<24 {
            clock.now = Double(frame) / 15
            context.advance()
            let note: String = context.run {
                switch frame {
                case 4:
                    let e = makeLayer(CALayer(), name: "e", frame: CGRect(x: 100, y: 200, width: 30, height: 30), in: root)
                    e.opacity = 0.4
                    layers["e"] = e
                    return "a layer is added"
                case 8: layers["b"]!.removeFromSuperlayer(); return "a layer is removed"
                case 10: root.insertSublayer(layers["c"]!, at: 0); return "a layer goes to the back"
                case 12: layers["label"]!.isHidden = true; return "the text layer hides"
                case 14: layers["label"]!.isHidden = false; layers["a"]!.name = nil; return "it shows again, a layer loses its name"
                case 16: (layers["label"] as! CATextLayer).string = "score 10"; return "the text changes"
                case 18: layers["e"]!.backgroundColor = nil; layers["e"]!.borderWidth = 1; return "a background goes, a border comes"
                case 20: root.insertSublayer(layers["b"]!, below: layers["label"]!); return "the removed layer comes back"
                default: return frame == 0 ? "the first frame" : "animations run"
                }
            }
            lists.append((note, frame == 0, builder.build(root, at: clock.now)))
        }
        return Vector(name: "scene", about: "lists built by DisplayListBuilder from an animated layer tree with perspective, text, a shadow, an image and an emitter, at 15 frames a second", fps: 15, lists)
    }

    /// Shape, gradient, replicator, clip, mask and additive items built by DisplayListBuilder; every
    /// new field is set, changed and returned to its default, and paths come and go.
    static var shapes: Vector {
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let builder = DisplayListBuilder()
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        var shape: CAShapeLayer!, gradient: CAGradientLayer!, replicator: CAReplicatorLayer!, card: CALayer!
        var photo: CALayer!, emitter: CAEmitterLayer!
        let root = context.run {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            defer { CATransaction.commit() }
            let root = makeRoot()
            shape = makeLayer(CAShapeLayer(), name: "ring", frame: CGRect(x: 20, y: 20, width: 100, height: 100), in: root)
            shape.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80))
            shape.fillColor = CGColor(red: 1, green: 0.84, blue: 0, alpha: 0.5)
            shape.strokeColor = blue
            shape.lineWidth = 6
            shape.lineCap = .round
            shape.lineDashPattern = [12, 6]
            shape.strokeEnd = 0.5
            gradient = makeLayer(CAGradientLayer(), name: "shimmer", frame: CGRect(x: 140, y: 20, width: 200, height: 60), in: root)
            gradient.colors = [red, blue]
            gradient.startPoint = CGPoint(x: 0, y: 0.5)
            gradient.endPoint = CGPoint(x: 1, y: 0.5)
            replicator = makeLayer(CAReplicatorLayer(), name: "dots", frame: CGRect(x: 20, y: 140, width: 200, height: 40), in: root, background: nil)
            replicator.instanceCount = 3
            replicator.instanceTransform = CATransform3DMakeTranslation(40, 0, 0)
            replicator.instanceAlphaOffset = -0.25
            let dot = makeLayer(CAShapeLayer(), name: "dot", frame: CGRect(x: 0, y: 0, width: 20, height: 20), in: replicator, background: nil)
            dot.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20))
            dot.fillColor = red
            card = makeLayer(CALayer(), name: "card", frame: CGRect(x: 240, y: 140, width: 120, height: 80), in: root)
            card.masksToBounds = true
            card.cornerRadius = 16
            makeLayer(CALayer(), name: "stripe", frame: CGRect(x: -10, y: 30, width: 140, height: 20), in: card, background: blue)
            photo = makeLayer(CALayer(), name: "photo", frame: CGRect(x: 20, y: 240, width: 120, height: 120), in: root, background: red)
            let mask = makeLayer(CAGradientLayer(), name: "reveal", frame: CGRect(x: 0, y: 0, width: 120, height: 120), background: nil)
            mask.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 0)]
            mask.type = .conic
            mask.startPoint = CGPoint(x: 0.5, y: 0.5)
            mask.endPoint = CGPoint(x: 0.5, y: 0)
            photo.mask = mask
            emitter = makeLayer(CAEmitterLayer(), name: "sparks", frame: CGRect(x: 200, y: 260, width: 100, height: 100), in: root)
            emitter.renderMode = .additive
            return root
        }
        var lists: [(note: String, full: Bool, list: DisplayList)] = []
        for frame in 0..<6 {
            clock.now = Double(frame) / 15
            context.advance()
            let note: String = context.run {
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                defer { CATransaction.commit() }
                switch frame {
                case 1:
                    shape.strokeEnd = 0.75
                    gradient.type = .radial
                    gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
                    gradient.endPoint = CGPoint(x: 1, y: 1)
                    replicator.instanceCount = 4
                    return "the stroke grows (a new path, the old one dropped), the gradient turns radial, a copy is added"
                case 2:
                    shape.fillColor = nil
                    shape.strokeColor = nil
                    gradient.colors = nil
                    card.masksToBounds = false
                    photo.mask = nil
                    emitter.renderMode = .oldestFirst
                    return "fill, stroke, gradient, clip, mask and additive mode return to their defaults"
                case 3: return "a full frame with nothing new"
                case 4:
                    shape.fillColor = red
                    gradient.colors = [red, blue]
                    gradient.type = .conic
                    return "fill and a conic gradient come back"
                case 5:
                    shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
                    return "the path changes: the new one is sent, the old one dropped"
                default: return "the first frame"
                }
            }
            lists.append((note, frame == 0 || frame == 3, builder.build(root, at: clock.now)))
        }
        return Vector(name: "shapes", about: "lists built by DisplayListBuilder with a dashed, trimmed shape, gradients of every type, replicator copies, a clip, a mask and an additive emitter, at 15 frames a second", fps: 15, lists)
    }
}

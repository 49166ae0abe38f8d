import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// protocol.md, "frame": a delta removes, sets changed fields (null returns a field to its
// default), appends, and carries `order` only when the result's order is not the new one.

@Suite("Frame deltas")
struct FrameDeltaTests {
    private let red = DrawColor(red: 255, green: 0, blue: 0)

    @Test func deltaMessage() throws {
        let old = DisplayList(items: [
            DrawItem(id: 1, name: "a", width: 10, height: 10, background: red),
            DrawItem(id: 2, name: "b", width: 10, height: 10, background: red),
            DrawItem(id: 3, name: "c", width: 10, height: 10, opacity: 0.5, background: red, borderColor: red, borderWidth: 1),
        ])
        let new = DisplayList(items: [
            DrawItem(id: 3, name: "c", width: 10, height: 10, borderColor: red, borderWidth: 1),
            DrawItem(id: 1, name: "a", matrix: DrawMatrix(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 0), width: 10, height: 10, background: red),
            DrawItem(id: 4, name: "d", width: 20, height: 20, image: "star"),
        ])
        // Remove 2; c's opacity (0.5 → 1) and background (red → none) return to their
        // defaults: null; a moved; append 4. That gives [1, 3, 4], not [3, 1, 4]: order.
        let delta = FrameDelta.from(old, to: new)
        #expect(delta == FrameDelta(
            remove: [2],
            set: [ItemChange(id: 3, fields: [.opacity(1), .background(nil)]),
                  ItemChange(id: 1, fields: [.matrix(DrawMatrix(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 0))])],
            add: [new.items[2]],
            order: [3, 1, 4]))
        let message = FrameMessage.delta(delta, number: 121, time: 4.0333333)
        #expect(message.serialized() == """
            {"type":"frame","n":121,"t":4.033333,"full":false,"set":[{"id":3,"o":null,"bg":null},{"id":1,"m":[1,0,0,1,5,0]}],\
            "add":[{"id":4,"name":"d","s":[20,20],"img":"star"}],"remove":[2],"order":[3,1,4]}
            """)
        // A parsed delta also carries its frame's t, at which particle records die.
        var timed = delta
        timed.time = 4.033333
        #expect(try FrameDelta(deltaFrame: throughText(message)) == timed)
        #expect(delta.applied(to: old) == new)
    }

    @Test func orderOnlyWhenNeeded() {
        let a = DrawItem(id: 1, width: 1), b = DrawItem(id: 2, width: 1), c = DrawItem(id: 3, width: 1)
        // Appending and removing keep the order: no `order`.
        #expect(FrameDelta.from(DisplayList(items: [a, b]), to: DisplayList(items: [b, c])).order == nil)
        // An unchanged list gives an empty delta, written with no set/add/remove/order.
        let same = FrameDelta.from(DisplayList(items: [a, b]), to: DisplayList(items: [a, b]))
        #expect(same.isEmpty)
        #expect(FrameMessage.delta(same, number: 2, time: 0.5).serialized() == #"{"type":"frame","n":2,"t":0.5,"full":false}"#)
        // A swap needs it.
        #expect(FrameDelta.from(DisplayList(items: [a, b]), to: DisplayList(items: [b, a])).order == [2, 1])
        // So does a new item that goes in front of an old one.
        #expect(FrameDelta.from(DisplayList(items: [a]), to: DisplayList(items: [c, a])).order == [3, 1])
    }

    @Test func decodersRejectMalformedFrames() {
        let frame: JSONValue = ["type": "frame", "n": 1, "t": 0, "full": true, "items": [["id": 1, "m": [1, 0, 0, 1]]]]
        #expect(throws: ProtocolError(.badField, "frame.items[0].m must be an array of 6 numbers, or 9 ending in 1 (it is an array)")) {
            try DisplayList(fullFrame: frame)
        }
        #expect(throws: ProtocolError(.badField, "frame.full must be false (it is true)")) {
            try FrameDelta(deltaFrame: frame)
        }
        #expect(throws: ProtocolError(.unknownType, "expected a \"frame\" message, got type \"pong\"")) {
            try DisplayList(fullFrame: ["type": "pong"])
        }
        #expect(throws: ProtocolError(.badField, "frame.set[0].bg must be a colour \"#rrggbb\" or \"#rrggbbaa\" (it is the string \"red\")")) {
            try FrameDelta(deltaFrame: ["type": "frame", "n": 1, "t": 0, "full": false, "set": [["id": 1, "bg": "red"]]])
        }
    }

    /// A scene with explicit animations (position, opacity, transform), implicit ones, layers
    /// added, removed, reordered with insertSublayer, hidden, renamed and retexted, over 60
    /// frames at 1/30 s: every delta, also after a trip through JSON text and the decoders,
    /// turns the previous frame into exactly the next.
    @Test func animatedSceneRoundTrip() throws {
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let builder = DisplayListBuilder()
        var layers: [String: CALayer] = [:]
        let root = context.run {
            let root = makeRoot()
            root.sublayerTransform = perspective(800)
            for (index, name) in ["a", "b", "c", "d"].enumerated() {
                let layer = makeLayer(CALayer(), name: name, frame: CGRect(x: 40 + 80 * CGFloat(index), y: 50, width: 60, height: 60), in: root)
                layer.borderWidth = 2
                layers[name] = layer
            }
            let label = makeLayer(CATextLayer(), name: "label", frame: CGRect(x: 20, y: 300, width: 200, height: 30), in: root, background: nil)
            label.string = "score 0"
            label.fontSize = 17
            layers["label"] = label

            let move = CABasicAnimation(keyPath: "position")
            move.toValue = CGPoint(x: 300, y: 250)
            move.duration = 1.2
            layers["a"]!.add(move, forKey: "move")
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.2
            fade.toValue = 1
            fade.duration = 0.8
            layers["b"]!.add(fade, forKey: "fade")
            let spin = CABasicAnimation(keyPath: "transform")
            spin.toValue = CATransform3DMakeRotation(degrees(170), 0, 1, 0)
            spin.duration = 1.5
            spin.autoreverses = true
            layers["c"]!.add(spin, forKey: "spin")
            layers["c"]!.isDoubleSided = false   // culled while it shows its back
            return root
        }

        var lists: [DisplayList] = []
        for frame in 0..<60 {
            clock.now = Double(frame) / 30
            context.advance()
            context.run {
                switch frame {
                case 5:   // a new layer, with an implicit animation once it is in the tree
                    let e = makeLayer(CALayer(), name: "e", frame: CGRect(x: 100, y: 200, width: 30, height: 30), in: root)
                    e.opacity = 0.4
                    layers["e"] = e
                case 12: layers["d"]!.removeFromSuperlayer()
                case 18: root.insertSublayer(layers["c"]!, at: 0)
                case 24: layers["b"]!.isHidden = true
                case 30: layers["b"]!.isHidden = false; layers["a"]!.name = nil
                case 36: (layers["label"] as! CATextLayer).string = "score 10"
                case 42: layers["e"]!.backgroundColor = nil; root.insertSublayer(layers["label"]!, below: layers["c"]!)
                case 48: root.addSublayer(layers["d"]!); layers["d"]!.shadowOpacity = 0.6
                default: break
                }
            }
            lists.append(builder.build(root, at: clock.now))
        }

        var client = try DisplayList(fullFrame: throughText(FrameMessage.full(lists[0], number: 0, time: 0)))
        #expect(client == lists[0])
        var kinds = (remove: 0, add: 0, order: 0, reset: 0)
        for n in 1..<lists.count {
            let delta = FrameDelta.from(lists[n - 1], to: lists[n])
            #expect(delta.applied(to: lists[n - 1]) == lists[n], "frame \(n)")
            let received = try FrameDelta(deltaFrame: throughText(FrameMessage.delta(delta, number: n, time: Double(n) / 30)))
            #expect(received == delta, "frame \(n)")
            client = received.applied(to: client)
            #expect(client == lists[n], "frame \(n)")
            #expect(try DisplayList(fullFrame: throughText(FrameMessage.full(lists[n], number: n, time: Double(n) / 30))) == lists[n])
            kinds.remove += delta.remove.count
            kinds.add += delta.add.count
            kinds.order += delta.order == nil ? 0 : 1
            kinds.reset += delta.set.flatMap(\.fields).filter(\.isDefault).count
        }
        // The scene exercised every part of a delta.
        #expect(kinds.remove > 0 && kinds.add > 0 && kinds.order > 0 && kinds.reset > 0, "\(kinds)")
    }
}

import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// Shape, gradient, replicator, clip and mask items (protocol.md, "Shapes", "Gradients",
// "Replicators", "Clips and masks"); the root is 400×400 at the origin and draws nothing.

@Suite("Shape, gradient, replicator, clip and mask items")
struct ShapeWireTests {
    private static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A line from (0,0) to (100,0) in a 100×10 shape layer at (10,20).
    private func lineShape(in root: CALayer) -> CAShapeLayer {
        let shape = makeLayer(CAShapeLayer(), name: "line", frame: CGRect(x: 10, y: 20, width: 100, height: 10), in: root, background: nil)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        shape.path = path.copy()
        shape.fillColor = nil
        shape.strokeColor = Self.blue
        shape.lineWidth = 4
        return shape
    }

    @Test func shapeFillAndStrokeWithThePathTable() throws {
        let root = makeRoot()
        let shape = makeLayer(CAShapeLayer(), name: "tri", frame: CGRect(x: 10, y: 20, width: 100, height: 100), in: root, background: nil)
        // Bounds origin (5, 5) is folded in: the path point (5, 5) is the item rect's (0, 0).
        shape.bounds = CGRect(x: 5, y: 5, width: 100, height: 100)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 5, y: 5))
        path.addLine(to: CGPoint(x: 105.004, y: 5))
        path.addQuadCurve(to: CGPoint(x: 5, y: 105), control: CGPoint(x: 105, y: 105))
        path.closeSubpath()
        shape.path = path.copy()
        shape.fillColor = Self.red
        shape.fillRule = .evenOdd
        shape.strokeColor = Self.blue
        shape.lineWidth = 2.5
        shape.lineCap = .round
        shape.lineJoin = .bevel
        shape.miterLimit = 4
        shape.lineDashPattern = [6, 3]
        shape.lineDashPhase = 1.5
        let list = DisplayListBuilder().build(root, at: 0)
        // 105.004 − 5 = 100.004 quantises to 100 (1e-2 pt); fill and stroke share one path, id 1.
        #expect(list.paths == [1: DrawPath(data: "M0 0L100 0Q100 100 0 100Z")])
        #expect(list.items[0].json.serialized() == """
            {"id":1,"name":"tri","m":[1,0,0,1,10,20],"s":[100,100],"fill":{"path":1,"c":"#ff0000","rule":"evenodd"},\
            "stroke":{"path":1,"c":"#0000ff","w":2.5,"cap":"round","join":"bevel","ml":4,"dash":[6,3],"dp":1.5}}
            """)
        let message = try throughText(FrameMessage.full(list, number: 1, time: 0))
        #expect(message.serialized().hasSuffix(#""paths":[[1,"M0 0L100 0Q100 100 0 100Z"]]}"#))
        #expect(try DisplayList(fullFrame: message) == list)
    }

    @Test func strokeStartAndEndTrimTheStrokeOnly() {
        let root = makeRoot()
        let shape = lineShape(in: root)
        shape.fillColor = Self.red
        shape.strokeStart = 0.25
        shape.strokeEnd = 0.75
        shape.lineDashPattern = [10, 5]
        shape.lineDashPhase = 2
        let list = DisplayListBuilder().build(root, at: 0)
        let item = list.items[0]
        // The fill keeps the whole path; the stroke runs from 25 to 75 of the 100-point line, its
        // dashes moved on by the 25 points trimmed off so they stay where they were: 2 + 25 = 27.
        #expect(list.paths[item.fill!.path] == DrawPath(data: "M0 0L100 0"))
        #expect(list.paths[item.stroke!.path] == DrawPath(data: "M25 0L75 0"))
        #expect(item.stroke!.dashPhase == 27)
    }

    @Test func trimmingACircleCutsItsCurvesByLength() {
        // An ellipse in 100×100 starts at (100, 50) and runs clockwise on screen through (50, 100);
        // its four quarter arcs have equal length, so strokeEnd 0.5 keeps two whole arcs
        // (controls at 50 ± 0.5523·50 = 77.61 / 22.39) and 0.125 cuts the first at its middle,
        // (50 + 50·cos 45°, 50 + 50·sin 45°) = (85.36, 85.36) within the cubic's 0.03 % error.
        let root = makeRoot()
        let shape = makeLayer(CAShapeLayer(), name: "ring", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, background: nil)
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
        shape.fillColor = nil
        shape.strokeColor = Self.blue
        shape.strokeEnd = 0.5
        var list = DisplayListBuilder().build(root, at: 0)
        #expect(list.paths.values.first == DrawPath(data: "M100 50C100 77.61 77.61 100 50 100C22.39 100 0 77.61 0 50"))
        shape.strokeEnd = 0.125
        list = DisplayListBuilder().build(root, at: 0)
        let data = list.paths.values.first!.data
        let end = data.split(separator: " ").suffix(2).compactMap { Double($0) }
        #expect(data.hasPrefix("M100 50C"))
        #expect(abs(end[0] - 85.36) <= 0.02 && abs(end[1] - 85.36) <= 0.02)
        // Start past end strokes nothing; the layer then draws nothing and has no item.
        shape.strokeStart = 0.5
        #expect(DisplayListBuilder().build(root, at: 0).items.isEmpty)
    }

    @Test func anUnchangedPathIsNotSentAgain() throws {
        let root = makeRoot()
        let shape = lineShape(in: root)
        let builder = DisplayListBuilder()
        let first = builder.build(root, at: 0)
        shape.lineWidth = 6
        let second = builder.build(root, at: 0)
        let unchanged = FrameDelta.from(first, to: second)
        #expect(unchanged.paths.isEmpty && unchanged.dropPaths.isEmpty)
        #expect(FrameMessage.delta(unchanged, number: 2, time: 0).serialized()
            == ##"{"type":"frame","n":2,"t":0,"full":false,"set":[{"id":1,"stroke":{"path":1,"c":"#0000ff","w":6}}]}"##)
        shape.strokeEnd = 0.5
        let third = builder.build(root, at: 0)
        let changed = FrameDelta.from(second, to: third)
        let text = FrameMessage.delta(changed, number: 3, time: 0).serialized()
        #expect(text == ##"{"type":"frame","n":3,"t":0,"full":false,"set":[{"id":1,"stroke":{"path":2,"c":"#0000ff","w":6}}],"paths":[[2,"M0 0L50 0"]],"unpaths":[1]}"##)
        #expect(try FrameDelta(deltaFrame: try JSONValue.parse(text)).applied(to: second) == third)
    }

    @Test func gradientItem() {
        let root = makeRoot()
        let gradient = makeLayer(CAGradientLayer(), name: "glow", frame: CGRect(x: 0, y: 0, width: 200, height: 100), in: root, background: nil)
        gradient.colors = [Self.red, Self.blue, CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)]
        gradient.locations = [0, 0.8, 0.3]
        gradient.type = .radial
        gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let item = DisplayListBuilder().build(root, at: 0).items[0]
        // Points scale by the bounds' size; stops are sorted by offset.
        #expect(item.json.serialized() == """
            {"id":1,"name":"glow","s":[200,100],"grad":{"type":"radial","stops":[[0,"#ff0000"],[0.3,"#00ff0080"],[0.8,"#0000ff"]],"p0":[100,50],"p1":[200,100]}}
            """)
    }

    @Test func replicatorCopiesAreItemsWithStableIDs() {
        let root = makeRoot()
        let replicator = makeLayer(CAReplicatorLayer(), name: "rep", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, background: nil)
        let dot = makeLayer(CALayer(), name: "dot", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: replicator)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        replicator.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
        replicator.instanceBlueOffset = -0.5
        replicator.instanceAlphaOffset = -0.2
        let builder = DisplayListBuilder()
        let list = builder.build(root, at: 0)
        // Copy k: translated 20k, blue 1 − 0.5k, alpha 0.8 − 0.2k (in the opacity).
        #expect(list.items.map(\.matrix.tx) == [0, 20, 40])
        #expect(list.items.map(\.background) == [DrawColor(red: 255, green: 255, blue: 255), DrawColor(red: 255, green: 255, blue: 128),
                                                 DrawColor(red: 255, green: 255, blue: 0)])
        #expect(list.items.map(\.opacity) == [0.8, 0.6, 0.4])
        #expect(Set(list.items.map(\.id)).count == 3)
        dot.backgroundColor = Self.red
        #expect(builder.build(root, at: 0).items.map(\.id) == list.items.map(\.id))
    }

    @Test func aCopysColourTintsItsImage() throws {
        let root = makeRoot()
        let replicator = makeLayer(CAReplicatorLayer(), name: "rep", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, background: nil)
        let coin = makeLayer(CALayer(), name: "coin", frame: CGRect(x: 0, y: 0, width: 44, height: 44), in: replicator, background: nil)
        coin.contents = CGImage(named: "coin", width: 44, height: 44)
        replicator.instanceCount = 2
        replicator.instanceColor = CGColor(red: 1, green: 0.5, blue: 0.2, alpha: 1)
        replicator.instanceRedOffset = -0.5
        let builder = DisplayListBuilder()
        let list = builder.build(root, at: 0)
        // Copy k: red 1 − 0.5k, green 0.5 (255·0.5 = 127.5 → 128), blue 0.2 (51); copy 0 is tinted too.
        #expect(list.items.map(\.imageTint) == [DrawColor(red: 255, green: 128, blue: 51), DrawColor(red: 128, green: 128, blue: 51)])
        #expect(list.items.map(\.image) == ["coin", "coin"])
        #expect(list.items[0].json["it"] == "#ff8033")
        let decoded = try DisplayList(fullFrame: ["type": "frame", "n": 0, "t": 0, "full": true,
                                                  "items": .array(list.items.map(\.json))])
        #expect(decoded.items == list.items)

        replicator.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        replicator.instanceRedOffset = 0
        let untinted = builder.build(root, at: 0)
        #expect(untinted.items.map(\.imageTint) == [nil, nil])
        #expect(untinted.items.allSatisfy { $0.json["it"] == nil })
    }

    @Test func aCopysColourMultipliesAnImageTintAlreadyThere() {
        var items = [DrawItem(id: 1, image: "coin", imageTint: DrawColor(red: 200, green: 100, blue: 255)),
                     DrawItem(id: 2, background: DrawColor(red: 255, green: 255, blue: 255))][...]
        DisplayListBuilder.tint(&items, by: CGColor(red: 0.5, green: 1, blue: 0.2, alpha: 1))
        // 200·0.5, 100·1, 255·0.2; an item without an image gets no image tint.
        #expect(items.map(\.imageTint) == [DrawColor(red: 100, green: 100, blue: 51), nil])
    }

    @Test func replicatorDelayShiftsTheCopiesTime() {
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let root = context.run {
            let root = makeRoot()
            let replicator = makeLayer(CAReplicatorLayer(), name: "rep", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, background: nil)
            let dot = makeLayer(CALayer(), name: "dot", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: replicator)
            replicator.instanceCount = 2
            replicator.instanceDelay = 0.5
            let move = CABasicAnimation(keyPath: "position.x")
            move.fromValue = 5
            move.toValue = 105
            move.duration = 1
            move.fillMode = .both
            dot.add(move, forKey: "move")
            return root
        }
        // At 0.75 s the original is 3/4 along (x 80, rect at 75); the copy shows 0.25 s (x 30, at 25).
        clock.now = 0.75
        context.advance()
        let list = DisplayListBuilder().build(root, at: 0.75)
        #expect(list.items.map(\.matrix.tx) == [75, 25])
    }

    @Test func masksToBoundsClipsTheSublayersItems() {
        let root = makeRoot()
        let card = makeLayer(CALayer(), name: "card", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, background: nil)
        card.masksToBounds = true
        card.cornerRadius = 12
        makeLayer(CALayer(), name: "a", frame: CGRect(x: -20, y: 0, width: 50, height: 50), in: card)
        makeLayer(CALayer(), name: "b", frame: CGRect(x: 80, y: 80, width: 50, height: 50), in: card)
        let list = DisplayListBuilder().build(root, at: 0)
        // The card draws nothing but carries the clip over the two items after it.
        #expect(list.names == ["card", "a", "b"])
        #expect(list.items[0].json.serialized() == #"{"id":1,"name":"card","s":[100,100],"cr":12,"grp":{"n":2,"clip":true}}"#)
        // Without sublayers to clip, a layer that draws nothing has no item.
        card.sublayers = nil
        #expect(DisplayListBuilder().build(root, at: 0).items.isEmpty)
    }

    @Test func maskItemsTravelWithTheMaskedItem() throws {
        let root = makeRoot()
        let photo = makeLayer(CALayer(), name: "photo", frame: CGRect(x: 10, y: 10, width: 100, height: 100), in: root)
        makeLayer(CALayer(), name: "badge", frame: CGRect(x: 0, y: 0, width: 20, height: 20), in: photo)
        let mask = makeLayer(CAShapeLayer(), name: "mask", frame: CGRect(x: 0, y: 0, width: 100, height: 100), background: nil)
        mask.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
        mask.opacity = 0.5
        photo.mask = mask
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.names == ["photo", "badge"])
        let group = try #require(list.items[0].group)
        // The mask lies in the photo's bounds space: its item has the photo's matrix, its own opacity.
        #expect(group.count == 1 && !group.clips)
        #expect(group.mask?.map(\.name) == ["mask"])
        #expect(group.mask?[0].matrix == list.items[0].matrix)
        #expect(group.mask?[0].opacity == 0.5)
        #expect(list.paths.count == 1)
        #expect(try DisplayList(fullFrame: try throughText(FrameMessage.full(list, number: 1, time: 0))) == list)
        // A mask that draws nothing hides the photo and its sublayers.
        mask.fillColor = nil
        #expect(DisplayListBuilder().build(root, at: 0).items.isEmpty)
    }

    @Test func additiveEmitterCarriesItsRenderMode() {
        let root = makeRoot()
        let emitter = makeLayer(CAEmitterLayer(), name: "sparks", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        emitter.renderMode = .additive
        #expect(DisplayListBuilder().build(root, at: 0).items[0].renderMode == "additive")
        emitter.renderMode = .oldestFirst
        #expect(DisplayListBuilder().build(root, at: 0).items[0].renderMode == nil)
    }

    @Test func trimmingCountsEverySubpathAndKeepsWholeClosedOnes() {
        // Two closed 10×10 squares (length 40 each, 80 in all). 0.25…1 keeps the second half of
        // the first square (open, its Z now a line) and the whole second one (with its Z).
        var elements: [CGPathElement] = []
        for x in [0.0, 100.0] {
            elements += [.moveToPoint(CGPoint(x: x, y: 0)), .addLineToPoint(CGPoint(x: x + 10, y: 0)),
                         .addLineToPoint(CGPoint(x: x + 10, y: 10)), .addLineToPoint(CGPoint(x: x, y: 10)), .closeSubpath]
        }
        let kept = PathTrim.trim(elements, start: 0.25, end: 1)
        #expect(DrawPath(kept.elements, origin: .zero) == DrawPath(data: "M10 10L0 10L0 0M100 0L110 0L110 10L100 10Z"))
        // 20 of the first square's 40 were trimmed off before the kept part starts.
        #expect(kept.dashOffset == 20)
        // 0.55…0.6 lies wholly in the second square: its dash offset counts from that square's start.
        let late = PathTrim.trim(elements, start: 0.55, end: 0.6)
        #expect(DrawPath(late.elements, origin: .zero) == DrawPath(data: "M104 0L108 0"))
        #expect(late.dashOffset == 4)
    }

    @Test func decodersRejectMalformedShapeFields() {
        func delta(_ entry: JSONValue, _ extra: [String: JSONValue] = [:]) -> JSONValue {
            var frame: JSONObject = ["type": "frame", "n": 1, "t": 0, "full": false, "set": [entry]]
            for (key, value) in extra { frame[key] = value }
            return .object(frame)
        }
        #expect(throws: ProtocolError(.badField, #"frame.set[0].fill.rule must be "nonzero" or "evenodd" (it is the string "winding")"#)) {
            try FrameDelta(deltaFrame: delta(["id": 1, "fill": ["path": 1, "c": "#ff0000", "rule": "winding"]]))
        }
        #expect(throws: ProtocolError(.badField, #"frame.set[0].grad.type must be "axial", "radial" or "conic" (it is the string "diamond")"#)) {
            try FrameDelta(deltaFrame: delta(["id": 1, "grad": ["type": "diamond", "stops": [], "p0": [0, 0], "p1": [1, 1]]]))
        }
        #expect(throws: ProtocolError(.badField, #"frame.set[0].stroke.cap must be "butt", "round", "square" (it is the string "flat")"#)) {
            try FrameDelta(deltaFrame: delta(["id": 1, "stroke": ["path": 1, "c": "#ff0000", "w": 1, "cap": "flat"]]))
        }
        #expect(throws: ProtocolError(.badField, ##"frame.set[0].it must be an opaque colour "#rrggbb" (it is the string "#ff803380")"##)) {
            try FrameDelta(deltaFrame: delta(["id": 1, "img": "coin", "it": "#ff803380"]))
        }
        #expect(throws: ProtocolError(.badField, "frame.paths[0] must be [id, path data] (it is an array)")) {
            try FrameDelta(deltaFrame: delta(["id": 1], ["paths": [[1]]]))
        }
    }
}

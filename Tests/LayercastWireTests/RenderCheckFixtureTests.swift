import Foundation
import LayercastEngine
import LayercastJSON
import Testing
@testable import LayercastWire

// The random trees of Tests/integration/render-check/random.json, drawn by
// Tests/integration/test_browser_render.py: each case is a seeded layer tree of shape layers
// (ellipses, rounded rects and triangles, filled, stroked with caps, joins, dashes or a strokeEnd), an axial
// gradient, a replicator of dots with an alpha offset and a layer masked by an ellipse, as the
// first frame DisplayListBuilder makes of it and as an SVG document written from the same
// description (not from the display list), for Chromium to draw.
//
// The file is made here: `LAYERCAST_WRITE_VECTORS=1 swift test --filter RenderCheckFixtureTests`;
// without it the suite fails while the committed file differs from what this makes.

@Suite("Render check fixture")
struct RenderCheckFixtureTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../integration/render-check/random.json")

    @Test func committedFixtureIsWhatTheEncoderWritesNow() throws {
        let text = RandomTrees.text(seeds: Array(1...16))
        if ProcessInfo.processInfo.environment["LAYERCAST_WRITE_VECTORS"] == "1" {
            try text.write(to: Self.file, atomically: true, encoding: .utf8)
            return
        }
        #expect((try? String(contentsOf: Self.file, encoding: .utf8)) == text, """
            Tests/integration/render-check/random.json is not what the encoder writes now: \
            run LAYERCAST_WRITE_VECTORS=1 swift test --filter RenderCheckFixtureTests and commit it
            """)
    }
}

/// Seeded random layer trees with their SVG equivalents.
enum RandomTrees {
    /// SplitMix64, so that the trees do not depend on the standard library's generator.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
    }

    static let palette = ["#e83a2f", "#1f77b4", "#2ca02c", "#ffd700", "#9467bd", "#17becf", "#333333"]

    static func color(_ hex: String) -> CGColor {
        let c = DrawColor(hex: hex)!
        return CGColor(red: CGFloat(c.red) / 255, green: CGFloat(c.green) / 255, blue: CGFloat(c.blue) / 255, alpha: 1)
    }

    static func text(seeds: [UInt64]) -> String {
        var lines = [#"{"about":"seeded random layer trees: the first frame DisplayListBuilder makes of each, and the same tree as SVG (Tests/LayercastWireTests/RenderCheckFixtureTests.swift)","cases":["#]
        for (index, seed) in seeds.enumerated() {
            let (list, svg) = tree(seed: seed)
            let items = JSONValue.array(list.items.map(\.json)).serialized()
            let paths = DisplayList.tree(list.paths).value.serialized()
            lines.append(#"{"seed":\#(seed),"items":\#(items),"paths":\#(paths),"svg":\#(JSONValue.string(svg).serialized())}\#(index == seeds.count - 1 ? "" : ",")"#)
        }
        lines.append("]}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One tree: its display list at time 0 and its SVG document (400 × 400).
    static func tree(seed: UInt64) -> (DisplayList, String) {
        var g = Generator(state: seed)
        let context = SceneContext(clock: ManualClock())
        var svg: [String] = []
        var defs: [String] = []
        let root = context.run {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            defer { CATransaction.commit() }
            let root = makeRoot()
            for index in 0..<2 {
                let frame = CGRect(x: g.int(10...250), y: g.int(10...250), width: g.int(50...140), height: g.int(50...140))
                let shape = makeLayer(CAShapeLayer(), name: "shape-\(index)", frame: frame, in: root, background: nil)
                let inset = CGRect(x: 8, y: 8, width: frame.width - 16, height: frame.height - 16)
                let kind = g.int(0...2)
                let triangle = [CGPoint(x: inset.minX, y: inset.maxY), CGPoint(x: inset.midX, y: inset.minY),
                                CGPoint(x: inset.maxX, y: inset.maxY)]
                shape.path = switch kind {
                case 0: CGPath(ellipseIn: inset)
                case 1: CGPath(roundedRect: inset, cornerWidth: 10, cornerHeight: 10, transform: nil)
                default: CGPath(elements: [.moveToPoint(triangle[0]), .addLineToPoint(triangle[1]),
                                           .addLineToPoint(triangle[2]), .closeSubpath])
                }
                let fill: String? = g.int(0...4) == 0 ? nil : g.pick(palette)
                shape.fillColor = fill.map(color)
                let stroke = g.pick(palette), width = g.int(2...8)
                shape.strokeColor = color(stroke)
                shape.lineWidth = CGFloat(width)
                let cap = g.pick(["butt", "round", "square"]), join = g.pick(["miter", "round", "bevel"])
                shape.lineCap = CAShapeLayerLineCap(rawValue: cap)
                shape.lineJoin = CAShapeLayerLineJoin(rawValue: join)
                var strokeStyle = #"stroke="\#(stroke)" stroke-width="\#(width)" stroke-linecap="\#(cap)" stroke-linejoin="\#(join)" stroke-miterlimit="10""#
                if g.int(0...1) == 0 {
                    let on = g.int(4...14), off = g.int(4...14), phase = g.int(0...6)
                    shape.lineDashPattern = [NSNumber(value: on), NSNumber(value: off)]
                    shape.lineDashPhase = CGFloat(phase)
                    strokeStyle += #" stroke-dasharray="\#(on) \#(off)" stroke-dashoffset="\#(phase)""#
                } else {
                    let end = Double(g.int(6...20)) / 20
                    shape.strokeEnd = CGFloat(end)
                    // The first `end` of the outline: one dash of that length on a path of length 1.
                    if end < 1 { strokeStyle += #" pathLength="1" stroke-dasharray="\#(end) 2""# }
                }
                let fillStyle = fill.map { #"fill="\#($0)""# } ?? #"fill="none""#
                let outline = switch kind {
                case 0: #"<ellipse cx="\#(inset.midX)" cy="\#(inset.midY)" rx="\#(inset.width / 2)" ry="\#(inset.height / 2)""#
                case 1: #"<rect x="8" y="8" width="\#(inset.width)" height="\#(inset.height)" rx="10""#
                default: #"<polygon points="\#(triangle.map { "\($0.x),\($0.y)" }.joined(separator: " "))""#
                }
                svg.append(#"<g transform="translate(\#(frame.minX) \#(frame.minY))">\#(outline) \#(fillStyle) stroke="none"/>\#(outline) fill="none" \#(strokeStyle)/></g>"#)
            }

            let frame = CGRect(x: g.int(10...200), y: g.int(10...300), width: g.int(60...190), height: g.int(40...90))
            let gradient = makeLayer(CAGradientLayer(), name: "gradient", frame: frame, in: root, background: nil)
            let colors = (0..<g.int(2...3)).map { _ in g.pick(palette) }
            gradient.colors = colors.map(color)
            let start = CGPoint(x: Double(g.int(0...20)) / 20, y: Double(g.int(0...20)) / 20)
            var end = CGPoint(x: Double(g.int(0...20)) / 20, y: Double(g.int(0...20)) / 20)
            if end == start { end.x = 1 - start.x; end.y = 1 - start.y }
            if end == start { end = CGPoint(x: 1, y: 1) }
            gradient.startPoint = start
            gradient.endPoint = end
            let stops = colors.enumerated().map { #"<stop offset="\#(Double($0.offset) / Double(colors.count - 1))" stop-color="\#($0.element)"/>"# }
            defs.append(#"<linearGradient id="g\#(seed)" gradientUnits="userSpaceOnUse" x1="\#(frame.minX + start.x * frame.width)" y1="\#(frame.minY + start.y * frame.height)" x2="\#(frame.minX + end.x * frame.width)" y2="\#(frame.minY + end.y * frame.height)">\#(stops.joined())</linearGradient>"#)
            svg.append(#"<rect x="\#(frame.minX)" y="\#(frame.minY)" width="\#(frame.width)" height="\#(frame.height)" fill="url(#g\#(seed))"/>"#)

            let place = CGRect(x: g.int(10...200), y: g.int(10...300), width: 100, height: 60)
            let replicator = makeLayer(CAReplicatorLayer(), name: "replicator", frame: place, in: root, background: nil)
            let radius = g.int(6...14), count = g.int(2...5), dx = g.int(-30...30), dy = g.int(-30...30)
            let dotColor = g.pick(palette)
            let dot = makeLayer(CAShapeLayer(), name: "dot", frame: CGRect(x: 0, y: 0, width: 2 * radius, height: 2 * radius),
                                in: replicator, background: nil)
            dot.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 2 * radius, height: 2 * radius))
            dot.fillColor = color(dotColor)
            replicator.instanceCount = count
            replicator.instanceTransform = CATransform3DMakeTranslation(CGFloat(dx), CGFloat(dy), 0)
            replicator.instanceAlphaOffset = -0.2
            for k in 0..<count {
                svg.append(#"<circle cx="\#(Int(place.minX) + radius + k * dx)" cy="\#(Int(place.minY) + radius + k * dy)" r="\#(radius)" fill="\#(dotColor)" opacity="\#(1 - 0.2 * Double(k))"/>"#)
            }

            let box = CGRect(x: g.int(10...250), y: g.int(10...250), width: g.int(60...140), height: g.int(60...140))
            let boxColor = g.pick(palette)
            let masked = makeLayer(CALayer(), name: "masked", frame: box, in: root, background: color(boxColor))
            let mask = makeLayer(CAShapeLayer(), name: "mask", frame: CGRect(origin: .zero, size: box.size), background: nil)
            mask.path = CGPath(ellipseIn: CGRect(origin: .zero, size: box.size))
            masked.mask = mask
            defs.append(#"<mask id="m\#(seed)"><ellipse cx="\#(box.midX)" cy="\#(box.midY)" rx="\#(box.width / 2)" ry="\#(box.height / 2)" fill="white"/></mask>"#)
            svg.append(#"<rect x="\#(box.minX)" y="\#(box.minY)" width="\#(box.width)" height="\#(box.height)" fill="\#(boxColor)" mask="url(#m\#(seed))"/>"#)
            return root
        }
        let document = #"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><defs>\#(defs.joined())</defs>\#(svg.joined())</svg>"#
        return (DisplayListBuilder().build(root, at: 0), document)
    }
}

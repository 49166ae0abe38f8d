import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// protocol.md, "Matrices": an item's `m` maps its rect to the scene as the engine's
// `convert(_:to: nil)` maps the layer's bounds, through perspective, transform layers and bounds
// origins. Quantisation (1e-4 on a…d, 1e-2 on tx, ty, 1e-7 on g, h) moves a point of a 100-pt
// rect by well under 0.05 pt here, the tolerance used.

@Suite("Item matrices")
struct MatrixTests {
    /// Checks every item of `root` at `time` against the presentation tree's `convert`, at the
    /// bounds corners (inset by 1) and centre; returns how many items were checked.
    @discardableResult
    private func expectMatchesEngine(_ root: CALayer, at time: CFTimeInterval, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let list = DisplayListBuilder().build(root, at: time)
        let presented = root.presentation(at: time)!
        for item in list.items {
            let layer = descendant(of: presented, named: item.name!)!
            let b = layer.bounds
            let points = [CGPoint(x: b.minX + 1, y: b.minY + 1), CGPoint(x: b.maxX - 1, y: b.minY + 1),
                          CGPoint(x: b.minX + 1, y: b.maxY - 1), CGPoint(x: b.maxX - 1, y: b.maxY - 1),
                          CGPoint(x: b.midX, y: b.midY)]
            for p in points {
                let engine = layer.convert(p, to: nil)
                let wire = item.matrix.apply(x: Double(p.x - b.minX), y: Double(p.y - b.minY))!
                #expect(abs(wire.x - Double(engine.x)) < 0.05 && abs(wire.y - Double(engine.y)) < 0.05,
                        "\(item.name!) at \(p): wire \(wire), engine \(engine)", sourceLocation: sourceLocation)
            }
        }
        return list.items.count
    }

    @Test func affineChainMatchesEngine() {
        // Rotation, scale, anchor point and bounds origin, two levels deep, with a
        // sublayerTransform on the middle layer.
        let root = makeRoot()
        let a = makeLayer(CALayer(), name: "a", frame: CGRect(x: 50, y: 60, width: 200, height: 120), in: root)
        a.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        a.bounds.origin = CGPoint(x: 10, y: -20)
        a.transform = CATransform3DScale(CATransform3DMakeRotation(degrees(30), 0, 0, 1), 1.5, 0.8, 1)
        a.sublayerTransform = CATransform3DMakeRotation(degrees(-10), 0, 0, 1)
        let b = makeLayer(CALayer(), name: "b", frame: CGRect(x: 30, y: 10, width: 60, height: 40), in: a)
        b.bounds.origin = CGPoint(x: 5, y: 7)
        b.transform = CATransform3DMakeRotation(degrees(45), 0, 0, 1)
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.items.allSatisfy { $0.matrix.isAffine })
        #expect(expectMatchesEngine(root, at: 0) == 2)
    }

    @Test func perspectiveMatchesEngine() {
        // A plain layer tilted under the root's perspective is projective (g or h ≠ 0), and its
        // sublayer is flattened into it: both agree with the engine.
        let root = makeRoot()
        root.sublayerTransform = perspective(500)
        let card = makeLayer(CALayer(), name: "card", frame: CGRect(x: 100, y: 120, width: 160, height: 100), in: root)
        card.transform = CATransform3DRotate(CATransform3DMakeRotation(degrees(35), 0, 1, 0), degrees(20), 1, 0, 0)
        card.zPosition = 40
        card.bounds.origin = CGPoint(x: -12, y: 8)
        let inner = makeLayer(CALayer(), name: "inner", frame: CGRect(x: 20, y: 20, width: 50, height: 30), in: card)
        inner.transform = CATransform3DMakeRotation(degrees(25), 0, 0, 1)
        inner.sublayerTransform = perspective(300)
        let deep = makeLayer(CALayer(), name: "deep", frame: CGRect(x: 5, y: 5, width: 20, height: 20), in: inner)
        deep.transform = CATransform3DMakeRotation(degrees(-50), 1, 0, 0)
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.item(named: "card").map { !$0.matrix.isAffine } == true)
        #expect(list.item(named: "deep").map { !$0.matrix.isAffine } == true)
        #expect(expectMatchesEngine(root, at: 0) == 3)
    }

    @Test func transformLayerMatchesEngine() {
        // The cube: faces share the transform layer's 3D space, rotated children under m34.
        let (root, _) = makeCube()
        #expect(expectMatchesEngine(root, at: 0) == 6)
        // A transform layer nested in a transform layer, with a sublayerTransform of its own.
        let cube = descendant(of: root, named: "cube")!
        let inner = makeLayer(CATransformLayer(), name: "inner", frame: CGRect(x: 10, y: 10, width: 80, height: 80), in: cube, background: nil)
        inner.transform = CATransform3DMakeRotation(degrees(15), 0, 0, 1)
        inner.sublayerTransform = CATransform3DMakeRotation(degrees(40), 1, 1, 0)
        makeLayer(CALayer(), name: "chip", frame: CGRect(x: 20, y: 20, width: 40, height: 30), in: inner).zPosition = 20
        #expect(expectMatchesEngine(root, at: 0) == 7)
    }

    @Test func animatedPresentationMatchesEngine() {
        // The presentation tree at t = 0.4 of a 1 s transform animation on a tilted layer.
        let context = SceneContext(clock: ManualClock())
        let root = context.run {
            let root = makeRoot()
            root.sublayerTransform = perspective(600)
            let layer = makeLayer(CALayer(), name: "spinner", frame: CGRect(x: 150, y: 150, width: 100, height: 60), in: root)
            let spin = CABasicAnimation(keyPath: "transform")
            spin.fromValue = CATransform3DIdentity
            spin.toValue = CATransform3DMakeRotation(degrees(70), 0, 1, 0)
            spin.duration = 1
            layer.add(spin, forKey: "spin")
            return root
        }
        let list = DisplayListBuilder().build(root, at: 0.4)
        #expect(list.item(named: "spinner").map { !$0.matrix.isAffine } == true)
        #expect(expectMatchesEngine(root, at: 0.4) == 1)
    }

    @Test func matrixJSON() throws {
        // Affine: 6 numbers; projective: 9 with w = 1. Parsed back exactly.
        let affine = DrawMatrix(a: 0.866, b: 0.5, c: -0.5, d: 0.866, tx: 10.25, ty: -3)
        let projective = DrawMatrix(a: 1.0213, b: 0, c: 0.0456, d: 0.9987, tx: 120.5, ty: 80, g: -0.0012345, h: 0.0000001)
        #expect(affine.json.serialized() == "[0.866,0.5,-0.5,0.866,10.25,-3]")
        #expect(projective.json.serialized() == "[1.0213,0,0.0456,0.9987,120.5,80,-0.0012345,1e-7,1]")
        for matrix in [affine, projective] {
            #expect(try DrawMatrix(FieldReader(JSONValue.parse(matrix.json.serialized()), path: "m")) == matrix)
        }
    }
}

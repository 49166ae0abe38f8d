import Foundation
import LayercastEngine
import LayercastJSON
import Testing
@testable import LayercastWire

// The display list (protocol.md, "Draw items", "What is left out", "Order"). Trees are built
// outside any animation, so no implicit animation is involved; the root is 400×400 at the origin.

@Suite("Display list builder")
struct DisplayListBuilderTests {
    @Test func plainLayerItem() {
        let root = makeRoot()
        let box = makeLayer(CALayer(), name: "box", frame: CGRect(x: 10, y: 20, width: 100, height: 50), in: root)
        box.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        box.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        box.borderWidth = 2
        box.cornerRadius = 8
        box.opacity = 0.5
        box.contents = CGImage(named: "star", width: 44, height: 44)
        box.contentsGravity = .resizeAspect
        let list = DisplayListBuilder().build(root, at: 0)
        // The root draws nothing, so the box is the only item; it got the first id.
        // Rect (0,0) is bounds (0,0) = position (60,45) − anchor offset (50,25) = (10,20) in the scene.
        // Colours: 0.5·255 = 127.5 rounds to 128 = 0x80; alpha 0.5 → 0x80 appended.
        #expect(list == DisplayList(items: [
            DrawItem(id: 1, name: "box", matrix: DrawMatrix(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 20),
                     width: 100, height: 50, opacity: 0.5,
                     background: DrawColor(red: 255, green: 128, blue: 0), borderColor: DrawColor(red: 0, green: 0, blue: 255, alpha: 128),
                     borderWidth: 2, cornerRadius: 8, image: "star", gravity: .resizeAspect),
        ]))
        #expect(list.items[0].json.serialized() == """
            {"id":1,"name":"box","m":[1,0,0,1,10,20],"s":[100,50],"o":0.5,"bg":"#ff8000","bc":"#0000ff80","bw":2,"cr":8,"img":"star","g":"resizeAspect"}
            """)
    }

    @Test func boundsOriginIsFoldedIntoTheMatrix() {
        // bounds (10,20)–(110,70) with its anchor (60,45) at position (60,45): the bounds point
        // (10,20) lands on the scene point (10,20), so the item rect's (0,0) maps there.
        let root = makeRoot()
        let layer = makeLayer(CALayer(), name: "offset", frame: CGRect(x: 10, y: 20, width: 100, height: 50), in: root)
        layer.bounds.origin = CGPoint(x: 10, y: 20)
        #expect(DisplayListBuilder().build(root, at: 0).item(named: "offset")?.matrix == DrawMatrix(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 20))
        // With the origin at (−30, 5) the anchor is bounds (20, 30), still at (60,45); the rect's
        // (0,0) is bounds (−30, 5): (−30 − 20 + 60, 5 − 30 + 45) = (10, 20) again, where an
        // unfolded matrix would put bounds (0,0): (0 − 20 + 60, 0 − 30 + 45) = (40, 15).
        layer.bounds.origin = CGPoint(x: -30, y: 5)
        #expect(DisplayListBuilder().build(root, at: 0).item(named: "offset")?.matrix == DrawMatrix(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 20))
    }

    @Test func hiddenAndTransparentSubtreesAreLeftOut() {
        let root = makeRoot()
        let hidden = makeLayer(CALayer(), name: "hidden", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: root)
        makeLayer(CALayer(), name: "under-hidden", frame: CGRect(x: 0, y: 0, width: 5, height: 5), in: hidden)
        hidden.isHidden = true
        let clear = makeLayer(CALayer(), name: "clear", frame: CGRect(x: 20, y: 0, width: 10, height: 10), in: root)
        makeLayer(CALayer(), name: "under-clear", frame: CGRect(x: 0, y: 0, width: 5, height: 5), in: clear)
        clear.opacity = 0
        // 0.0004 quantises to o = 0 (step 1e-3): left out too, and so is its sublayer with
        // 1.0 · 0.0004 = 0.0004.
        let faint = makeLayer(CALayer(), name: "faint", frame: CGRect(x: 40, y: 0, width: 10, height: 10), in: root)
        makeLayer(CALayer(), name: "under-faint", frame: CGRect(x: 0, y: 0, width: 5, height: 5), in: faint)
        faint.opacity = 0.0004
        // Opacities multiply: 0.5 · 0.5 = 0.25 for the sublayer.
        let half = makeLayer(CALayer(), name: "half", frame: CGRect(x: 60, y: 0, width: 10, height: 10), in: root)
        makeLayer(CALayer(), name: "under-half", frame: CGRect(x: 0, y: 0, width: 5, height: 5), in: half).opacity = 0.5
        half.opacity = 0.5
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.names == ["half", "under-half"])
        #expect(list.items.map(\.opacity) == [0.5, 0.25])
    }

    @Test func layersThatDrawNothingLeaveOnlyTheirSublayers() {
        let root = makeRoot()
        let group = makeLayer(CALayer(), name: "group", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, background: nil)
        group.borderWidth = 3   // black border of width 3: visible
        let empty = makeLayer(CALayer(), name: "empty", frame: CGRect(x: 0, y: 0, width: 50, height: 50), in: group, background: .clear)
        empty.borderColor = .clear
        empty.borderWidth = 3   // a transparent border draws nothing
        makeLayer(CALayer(), name: "leaf", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: empty)
        let shadowOnly = makeLayer(CALayer(), name: "shadow", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: root, background: nil)
        shadowOnly.shadowOpacity = 0.5
        shadowOnly.shadowRadius = 4
        shadowOnly.shadowOffset = CGSize(width: 0, height: 3)
        let noShadow = makeLayer(CALayer(), name: "no-shadow", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: root, background: nil)
        noShadow.shadowOpacity = 1
        noShadow.shadowColor = CGColor(gray: 0, alpha: 0.001)  // 0.001·255 = 0.255 → alpha 0
        let list = DisplayListBuilder().build(root, at: 0)
        // "shadow" sits at the origin unrotated: its matrix is the identity, left out of the JSON.
        #expect(list.names == ["group", "leaf", "shadow"])
        #expect(list.item(named: "group")?.borderColor == DrawColor(red: 0, green: 0, blue: 0))
        #expect(list.item(named: "group")?.borderWidth == 3)
        #expect(list.item(named: "shadow")?.shadow == DrawShadow(color: DrawColor(red: 0, green: 0, blue: 0), opacity: 0.5, dx: 0, dy: 3, radius: 4))
        #expect(list.item(named: "shadow")?.json.serialized() == """
            {"id":3,"name":"shadow","s":[10,10],"sh":{"c":"#000000","o":0.5,"dx":0,"dy":3,"r":4}}
            """)
    }

    @Test func singleSidedLayerSeenFromBehindIsLeftOut() {
        // Rotating 180° about y maps (x, y, z) to (−x, y, −z): m11 = cos π = −1, m22 = 1, so the
        // x, y, w determinant is −1: the rect is mirrored, we see its back.
        let root = makeRoot()
        let front = makeLayer(CALayer(), name: "double", frame: CGRect(x: 100, y: 100, width: 40, height: 20), in: root)
        front.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        let back = makeLayer(CALayer(), name: "single", frame: CGRect(x: 100, y: 200, width: 40, height: 20), in: root)
        back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        back.isDoubleSided = false
        makeLayer(CALayer(), name: "on-single", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: back)
        let facing = makeLayer(CALayer(), name: "single-facing", frame: CGRect(x: 100, y: 300, width: 40, height: 20), in: root)
        facing.isDoubleSided = false
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.names == ["double", "single-facing"])
        // The mirrored one: rect (0,0) is bounds (0,0), 20 left of the anchor (20,10), which
        // mirrors to 20 right of the position (120,110): tx = 140, ty = 110 − 10 = 100.
        #expect(list.item(named: "double")?.matrix == DrawMatrix(a: -1, b: 0, c: 0, d: 1, tx: 140, ty: 100))
    }

    @Test func layersAtOrBehindTheEyeAreLeftOut() {
        // The root's sublayerTransform puts the eye 500 pt in front of its anchor (200,200).
        // zPosition 600 gives W = 1 − 600/500 = −0.2 at every corner: behind the eye.
        // zPosition 400 gives W = 1 − 400/500 = 0.2: magnified 5×, a 10×10 square centred on
        // the anchor becomes 50×50 from (175,175); the map stays affine (g = h = 0).
        let root = makeRoot()
        root.sublayerTransform = perspective(500)
        makeLayer(CALayer(), name: "behind", frame: CGRect(x: 195, y: 195, width: 10, height: 10), in: root).zPosition = 600
        makeLayer(CALayer(), name: "near", frame: CGRect(x: 195, y: 195, width: 10, height: 10), in: root).zPosition = 400
        // Tilted 80° about y and 2000 wide, the right edge reaches z = 1000·sin 80° ≈ 985 > 500.
        let tilted = makeLayer(CALayer(), name: "tilted", frame: CGRect(x: -800, y: 195, width: 2000, height: 10), in: root)
        tilted.transform = CATransform3DMakeRotation(degrees(-80), 0, 1, 0)
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.names == ["near"])
        #expect(list.items[0].matrix == DrawMatrix(a: 5, b: 0, c: 0, d: 5, tx: 175, ty: 175))
    }

    @Test func singleSidedSublayerOfAFlippedLayerIsKeptAsTheHitTestSeesIt() {
        // A card turned 180° about y shows its back, mirrored; a single-sided sticker on it faces
        // the viewer in the card's plane, where facing is judged (engine-model.md §7 rule 2), so
        // it is drawn, mirrored with the card: its centre (70, 70), 30 left of and above the
        // card's anchor (100, 100), lands 30 right of and above the position (200, 200).
        let root = makeRoot()
        let card = makeLayer(CALayer(), name: "card", frame: CGRect(x: 100, y: 100, width: 200, height: 200), in: root)
        card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        makeLayer(CALayer(), name: "sticker", frame: CGRect(x: 50, y: 50, width: 40, height: 40), in: card).isDoubleSided = false
        #expect(root.hitTest(CGPoint(x: 230, y: 170))?.name == "sticker")
        #expect(DisplayListBuilder().build(root, at: 0).names == ["card", "sticker"])
    }

    @Test func transformLayerOrdersOverlappingPlanesByTheirDepthWhereTheyOverlap() {
        // A 300-pt wall turned 60° about y (z' = −x·sin 60°): its left half comes nearer, up to
        // z = 130 at the edge, its right half goes away; its centre is at z = 0. A 20-pt tile at
        // zPosition 40 has the nearer centre, but over the wall's left half it is behind the wall
        // (z ≈ 87 there), over the right half in front: drawn before the wall, or after it, as the
        // hit test at the tile's centre finds the wall, or the tile, on top.
        for (x, front) in [(CGFloat(150), "wall"), (250, "tile")] {
            let root = makeRoot()
            root.sublayerTransform = perspective(500)
            let space = makeLayer(CATransformLayer(), name: "space", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root, background: nil)
            makeLayer(CALayer(), name: "wall", frame: CGRect(x: 50, y: 150, width: 300, height: 100), in: space).transform =
                CATransform3DMakeRotation(degrees(60), 0, 1, 0)
            makeLayer(CALayer(), name: "tile", frame: CGRect(x: x - 10, y: 190, width: 20, height: 20), in: space).zPosition = 40
            let centre = CGPoint(x: 200 + (x - 200) / (1 - 40.0 / 500), y: 200)
            #expect(root.hitTest(centre)?.name == front)
            #expect(DisplayListBuilder().build(root, at: 0).names == (front == "wall" ? ["tile", "wall"] : ["wall", "tile"]))
        }
    }

    @Test func overlapOrderMovesAPlaneWithItsSublayersPastAnUnrelatedFirstPlane() {
        // The wall and tile above with the tile at x 150 (behind the wall there), a dot on the
        // tile, and a far square (zPosition −50) that overlaps neither: by centres far, wall,
        // tile; by the overlap the tile and its dot go before the wall, and far stays first.
        let root = makeRoot()
        root.sublayerTransform = perspective(500)
        let space = makeLayer(CATransformLayer(), name: "space", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root, background: nil)
        makeLayer(CALayer(), name: "far", frame: CGRect(x: 0, y: 0, width: 20, height: 20), in: space).zPosition = -50
        makeLayer(CALayer(), name: "wall", frame: CGRect(x: 50, y: 150, width: 300, height: 100), in: space).transform =
            CATransform3DMakeRotation(degrees(60), 0, 1, 0)
        let tile = makeLayer(CALayer(), name: "tile", frame: CGRect(x: 140, y: 190, width: 20, height: 20), in: space)
        tile.zPosition = 40
        makeLayer(CALayer(), name: "dot", frame: CGRect(x: 5, y: 5, width: 10, height: 10), in: tile)
        #expect(root.hitTest(CGPoint(x: 200 + (150 - 200) / (1 - 40.0 / 500), y: 200))?.name == "wall")
        #expect(DisplayListBuilder().build(root, at: 0).names == ["far", "tile", "dot", "wall"])
    }

    @Test func transformLayerSortsACubeBackToFront() {
        // A 100-pt cube at the root's centre under perspective 500, turned −20° about x and then
        // 30° about y. Face centres (±50 along their normal) after Rx(−20°): front (0, 17.1, 47.0),
        // top (0, −47.0, 17.1); after Ry(30°) z' = −x·sin 30° + z·cos 30°:
        //   back −40.7, right −25, bottom −14.8, top 14.8, left 25, front 40.7.
        // w = 1 − z/500 keeps that order for z/w.
        let (root, faces) = makeCube()
        _ = faces
        let list = DisplayListBuilder().build(root, at: 0)
        #expect(list.names == ["back", "right", "bottom", "top", "left", "front"])
        // Single-sided faces whose normal points away are left out: normals after the turns have
        // z = 0.814 (front), 0.5 (left), 0.296 (top), and the negatives for the opposite faces.
        for face in faces { face.isDoubleSided = false }
        #expect(DisplayListBuilder().build(root, at: 0).names == ["top", "left", "front"])
    }

    @Test func transformLayerSortIsStableAndMovesSubtrees() {
        // Three sublayers at equal depth keep tree order; a zPosition moves one (with its
        // sublayer) to the back (−10) or front (+10). The transform layer draws nothing itself.
        let root = makeRoot()
        let space = makeLayer(CATransformLayer(), name: "space", frame: CGRect(x: 0, y: 0, width: 400, height: 400), in: root)
        let a = makeLayer(CALayer(), name: "a", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: space)
        makeLayer(CALayer(), name: "a-child", frame: CGRect(x: 0, y: 0, width: 5, height: 5), in: a)
        makeLayer(CALayer(), name: "b", frame: CGRect(x: 20, y: 0, width: 10, height: 10), in: space)
        let c = makeLayer(CALayer(), name: "c", frame: CGRect(x: 40, y: 0, width: 10, height: 10), in: space)
        #expect(DisplayListBuilder().build(root, at: 0).names == ["a", "a-child", "b", "c"])
        a.zPosition = 10
        c.zPosition = -10
        #expect(DisplayListBuilder().build(root, at: 0).names == ["c", "b", "a", "a-child"])
    }

    @Test func planeSiblingsDrawInZPositionOrderAsTheHitTestSeesThem() {
        // Overlapping siblings a, b; raising a with zPosition 1 draws it last (on top), and the
        // hit test at the overlap (both span x 10…20) finds a: what is drawn on top is what is hit.
        let root = makeRoot()
        let a = makeLayer(CALayer(), name: "a", frame: CGRect(x: 0, y: 0, width: 20, height: 20), in: root)
        makeLayer(CALayer(), name: "a-child", frame: CGRect(x: 0, y: 0, width: 5, height: 5), in: a)
        let b = makeLayer(CALayer(), name: "b", frame: CGRect(x: 10, y: 0, width: 20, height: 20), in: root)
        #expect(DisplayListBuilder().build(root, at: 0).names == ["a", "a-child", "b"])
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === b)
        a.zPosition = 1
        #expect(DisplayListBuilder().build(root, at: 0).names == ["b", "a", "a-child"])
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === a)
    }

    @Test func idsStayWithTheirLayers() {
        let root = makeRoot()
        let a = makeLayer(CALayer(), name: "a", frame: CGRect(x: 0, y: 0, width: 10, height: 10), in: root)
        let b = makeLayer(CALayer(), name: "b", frame: CGRect(x: 20, y: 0, width: 10, height: 10), in: root)
        let builder = DisplayListBuilder()
        #expect(builder.build(root, at: 0).items.map(\.id) == [1, 2])
        // Reordering keeps ids; a hidden layer keeps its id while it stays in the tree.
        root.insertSublayer(b, at: 0)
        #expect(builder.build(root, at: 0).items.map(\.id) == [2, 1])
        a.isHidden = true
        #expect(builder.build(root, at: 0).items.map(\.id) == [2])
        a.isHidden = false
        #expect(builder.build(root, at: 0).items.map(\.id) == [2, 1])
        // A layer that left the tree and comes back is new: ids are never reused.
        a.removeFromSuperlayer()
        #expect(builder.build(root, at: 0).items.map(\.id) == [2])
        root.addSublayer(a)
        let c = makeLayer(CALayer(), name: "c", frame: CGRect(x: 40, y: 0, width: 10, height: 10), in: root)
        _ = c
        #expect(builder.build(root, at: 0).items.map(\.id) == [2, 3, 4])
    }

    @Test func textLayerItem() {
        let root = makeRoot()
        let label = makeLayer(CATextLayer(), name: "label", frame: CGRect(x: 0, y: 0, width: 80, height: 20), in: root, background: nil)
        label.runs = [CATextRun("+8", fontSize: 17, fontWeight: 0.4, color: .white),
                      CATextRun("coins", fontSize: 12.345, color: CGColor(red: 1, green: 0.8, blue: 0, alpha: 1))]
        label.alignmentMode = .center
        // 12.345 → 12.35: 12.345·100 evaluates to exactly 1234.5 in binary and ties round away
        // from zero; 0.8·255 = 204 = 0xcc.
        let item = DisplayListBuilder().build(root, at: 0).item(named: "label")
        #expect(item?.text == DrawText(runs: [
            DrawTextRun(text: "+8", size: 17, weight: 0.4, color: DrawColor(red: 255, green: 255, blue: 255)),
            DrawTextRun(text: "coins", size: 12.35, weight: 0, color: DrawColor(red: 255, green: 204, blue: 0)),
        ], alignment: .center))
        // At the origin: the identity matrix is left out.
        #expect(item?.json.serialized() == """
            {"id":1,"name":"label","s":[80,20],"text":{"runs":[{"t":"+8","size":17,"weight":0.4,"c":"#ffffff"},{"t":"coins","size":12.35,"weight":0,"c":"#ffcc00"}],"align":"center"}}
            """)
        // A plain string in the layer's style; an empty one draws nothing.
        label.runs = nil
        label.string = ""
        #expect(DisplayListBuilder().build(root, at: 0).items.isEmpty)
        label.string = "hi"
        #expect(DisplayListBuilder().build(root, at: 0).item(named: "label")?.text?.runs == [
            DrawTextRun(text: "hi", size: 36, weight: 0, color: DrawColor(red: 255, green: 255, blue: 255)),
        ])
    }
}

/// A CATransformLayer cube (see `transformLayerSortsACubeBackToFront`) and its six faces.
func makeCube() -> (root: CALayer, faces: [CALayer]) {
    let root = makeRoot()
    root.sublayerTransform = perspective(500)
    let cube = makeLayer(CATransformLayer(), name: "cube", frame: CGRect(x: 150, y: 150, width: 100, height: 100), in: root, background: nil)
    cube.transform = CATransform3DConcat(CATransform3DMakeRotation(degrees(-20), 1, 0, 0), CATransform3DMakeRotation(degrees(30), 0, 1, 0))
    let placements: [(String, CATransform3D)] = [
        ("front", CATransform3DMakeTranslation(0, 0, 50)),
        ("back", CATransform3DConcat(CATransform3DMakeRotation(.pi, 0, 1, 0), CATransform3DMakeTranslation(0, 0, -50))),
        ("right", CATransform3DConcat(CATransform3DMakeRotation(.pi / 2, 0, 1, 0), CATransform3DMakeTranslation(50, 0, 0))),
        ("left", CATransform3DConcat(CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), CATransform3DMakeTranslation(-50, 0, 0))),
        ("top", CATransform3DConcat(CATransform3DMakeRotation(.pi / 2, 1, 0, 0), CATransform3DMakeTranslation(0, -50, 0))),
        ("bottom", CATransform3DConcat(CATransform3DMakeRotation(-.pi / 2, 1, 0, 0), CATransform3DMakeTranslation(0, 50, 0))),
    ]
    let faces = placements.map { name, transform in
        let face = makeLayer(CALayer(), name: name, frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: cube)
        face.transform = transform
        return face
    }
    return (root, faces)
}

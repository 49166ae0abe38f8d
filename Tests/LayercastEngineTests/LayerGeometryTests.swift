import Foundation
import Testing
@testable import LayercastEngine

// Layer geometry (docs/engine-model.md §6): frame, bounds origin, convert(_:to:/from:) through
// transforms, sublayerTransform with perspective and CATransformLayer. Trees are built bottom-up
// (properties set before a layer joins a tree), so no implicit animation is involved.

/// Sets up `l` (a new CALayer unless given) and adds it to `parent`.
private func makeLayer(_ l: CALayer = CALayer(), bounds: CGRect, position: CGPoint,
                       transform: CATransform3D = CATransform3DIdentity, in parent: CALayer? = nil) -> CALayer {
    l.bounds = bounds
    l.position = position
    l.transform = transform
    parent?.addSublayer(l)
    return l
}

/// A 400 × 400 root whose bounds space equals its superlayer space (position at its centre).
private func makeRoot() -> CALayer {
    makeLayer(bounds: CGRect(x: 0, y: 0, width: 400, height: 400), position: CGPoint(x: 200, y: 200))
}

@Suite("Layer geometry")
struct LayerGeometryTests {
    // MARK: frame

    @Test func frameFromBoundsPositionAndAnchor() {
        // §6: frame = the bounds corners mapped by M; M moves the anchor (x·w, y·h) to position.
        let l = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 100, y: 100))
        #expect(close(l.frame, CGRect(x: 50, y: 75, width: 100, height: 50)))
        l.anchorPoint = CGPoint(x: 0, y: 0)
        #expect(close(l.frame, CGRect(x: 100, y: 100, width: 100, height: 50)))
        l.anchorPoint = CGPoint(x: 1, y: 1)
        #expect(close(l.frame, CGRect(x: 0, y: 50, width: 100, height: 50)))
    }

    @Test func boundsOriginDoesNotMoveTheFrame() {
        // §6: M subtracts bounds.minX + anchor.x·w, so the origin cancels out.
        let l = makeLayer(bounds: CGRect(x: 10, y: 20, width: 100, height: 50), position: CGPoint(x: 100, y: 100))
        #expect(close(l.frame, CGRect(x: 50, y: 75, width: 100, height: 50)))
    }

    @Test func frameOfARotatedLayerIsTheBoundingBox() {
        // §6: a 100 × 50 box rotated 90° about its centre (100, 100) covers 50 × 100 around it.
        let l = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 100, y: 100),
                          transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        #expect(close(l.frame, CGRect(x: 75, y: 50, width: 50, height: 100)))
        l.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let side = (100 + 50) / 2.0.squareRoot()   // |w cos| + |h sin| for both extents at 45°
        #expect(close(l.frame, CGRect(x: 100 - side / 2, y: 100 - side / 2, width: side, height: side)))
    }

    @Test func frameOfAScaledLayer() {
        let l = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 100, y: 100),
                          transform: CATransform3DMakeScale(2, 2, 1))
        #expect(close(l.frame, CGRect(x: 0, y: 50, width: 200, height: 100)))
    }

    @Test func settingFrameSetsPositionAndBoundsSize() {
        // §6: "setting frame sets position and bounds.size" (bounds.origin is kept).
        let l = makeLayer(bounds: CGRect(x: 5, y: 6, width: 1, height: 1), position: .zero)
        l.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(close(l.position, CGPoint(x: 25, y: 40)))
        #expect(l.bounds == CGRect(x: 5, y: 6, width: 30, height: 40))
        #expect(close(l.frame, CGRect(x: 10, y: 20, width: 30, height: 40)))

        let corner = makeLayer(bounds: .zero, position: .zero)
        corner.anchorPoint = .zero
        corner.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(close(corner.position, CGPoint(x: 10, y: 20)))
        #expect(close(corner.frame, CGRect(x: 10, y: 20, width: 30, height: 40)))
    }

    @Test func settingAnchorKeepsPositionSoTheFrameMoves() {
        // The book seed (docs/scenes.md §4): changing anchorPoint alone moves the layer; setting the
        // frame again afterwards puts it back.
        let cover = makeLayer(bounds: CGRect(x: 0, y: 0, width: 200, height: 300), position: CGPoint(x: 100, y: 150))
        let frame = cover.frame
        cover.anchorPoint = CGPoint(x: 0, y: 0.5)
        #expect(close(cover.frame, CGRect(x: 100, y: 0, width: 200, height: 300)))
        cover.frame = frame
        #expect(close(cover.frame, frame))
        #expect(close(cover.position, CGPoint(x: 0, y: 150)))
    }

    // MARK: convert

    @Test func boundsOriginOffsetsSublayers() {
        // §6: a sublayer's position is in the superlayer's bounds space, so moving the superlayer's
        // bounds origin to (50, 0) shifts its sublayers by (−50, 0) on screen (a scroll view).
        let root = makeRoot()
        let parent = makeLayer(bounds: CGRect(x: 50, y: 0, width: 200, height: 200), position: CGPoint(x: 100, y: 100), in: root)
        let child = makeLayer(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: CGPoint(x: 60, y: 10), in: parent)
        #expect(close(parent.frame, CGRect(x: 0, y: 0, width: 200, height: 200)))
        // child (0, 0) → parent (50, 0) → root (50 − 50 − 100 + 100, 0) = (0, 0).
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: parent), CGPoint(x: 50, y: 0)))
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 0, y: 0)))
        #expect(close(child.convert(CGPoint(x: 0, y: 0), from: root), CGPoint(x: 0, y: 0)))
        #expect(close(root.convert(CGPoint(x: 5, y: 5), to: child), CGPoint(x: 5, y: 5)))
    }

    /// root ⊃ a (100 × 100 at (100, 100), rotated 90° about z) ⊃ b (10 × 10 at (25, 25), scaled 2);
    /// plus d, a sibling of a (50 × 50 at (300, 300)).
    private func rotatedTree() -> (root: CALayer, a: CALayer, b: CALayer, d: CALayer) {
        let root = makeRoot()
        let a = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                          transform: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), in: root)
        let b = makeLayer(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 25, y: 25),
                          transform: CATransform3DMakeScale(2, 2, 1), in: a)
        let d = makeLayer(bounds: CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 300, y: 300), in: root)
        return (root, a, b, d)
    }

    @Test func convertPointUpAndDownThroughTransforms() {
        let (root, a, b, d) = rotatedTree()
        // a: (100, 50) − anchor (50, 50) = (50, 0); Rz(90°) maps (x, y) → (−y, x) (row vectors,
        // m12 = sin: +x turns to +y, clockwise on a y-down screen) → (0, 50); + position → (100, 150).
        #expect(close(a.convert(CGPoint(x: 100, y: 50), to: root), CGPoint(x: 100, y: 150)))
        #expect(close(a.convert(CGPoint(x: 100, y: 150), from: root), CGPoint(x: 100, y: 50)))
        // b: (10, 10) − (5, 5) = (5, 5), ×2 → (10, 10), + (25, 25) → (35, 35) in a; − (50, 50)
        // = (−15, −15) → rotated (15, −15) → + (100, 100) = (115, 85).
        #expect(close(b.convert(CGPoint(x: 10, y: 10), to: a), CGPoint(x: 35, y: 35)))
        #expect(close(b.convert(CGPoint(x: 10, y: 10), to: root), CGPoint(x: 115, y: 85)))
        #expect(close(root.convert(CGPoint(x: 10, y: 10), from: b), CGPoint(x: 115, y: 85)))
        #expect(close(b.convert(CGPoint(x: 115, y: 85), from: root), CGPoint(x: 10, y: 10)))
        #expect(close(root.convert(CGPoint(x: 115, y: 85), to: b), CGPoint(x: 10, y: 10)))
        // Across siblings: root (115, 85) → d: − (300, 300) + anchor (25, 25) = (−160, −190).
        #expect(close(b.convert(CGPoint(x: 10, y: 10), to: d), CGPoint(x: -160, y: -190)))
        #expect(close(d.convert(CGPoint(x: -160, y: -190), to: b), CGPoint(x: 10, y: 10)))
        // A layer to itself is the identity.
        #expect(close(b.convert(CGPoint(x: 3, y: 4), to: b), CGPoint(x: 3, y: 4)))
    }

    @Test func convertRectIsTheBoundingBoxOfItsCorners() {
        let (root, a, _, _) = rotatedTree()
        // Corners (0,0) → (150, 50), (100,0) → (150, 150), (0,50) → (100, 50), (100,50) → (100, 150).
        let r = a.convert(CGRect(x: 0, y: 0, width: 100, height: 50), to: root)
        #expect(close(r, CGRect(x: 100, y: 50, width: 50, height: 100)))
        #expect(close(root.convert(CGRect(x: 0, y: 0, width: 100, height: 50), from: a), r))
        #expect(close(a.convert(r, from: root), CGRect(x: 0, y: 0, width: 100, height: 50)))
        // A layer's own bounds converted to its superlayer is its frame.
        #expect(close(a.convert(a.bounds, to: root), a.frame))
    }

    /// p ⊃ c: p 200 × 200 at (200, 200) in root with sublayerTransform m34 = −1/500; c 100 × 100
    /// centred on p's anchor (100, 100) with `transform`.
    private func perspectiveTree(_ transform: CATransform3D) -> (root: CALayer, p: CALayer, c: CALayer) {
        let root = makeRoot()
        let p = makeLayer(bounds: CGRect(x: 0, y: 0, width: 200, height: 200), position: CGPoint(x: 200, y: 200), in: root)
        p.sublayerTransform = perspective(500)
        let c = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 100, y: 100),
                          transform: transform, in: p)
        return (root, p, c)
    }

    @Test func perspectiveSublayerTransformActsAboutTheAnchor() {
        // §6: S(p) = T(−100, −100)·sublayerTransform·T(100, 100). c moved 100 towards the viewer:
        // w = 1 − z/500 = 0.8, so offsets from p's anchor grow by 1.25: c's (0, 0) sits at
        // offset (−50, −50) → (−62.5, −62.5) → (37.5, 37.5) in p → (137.5, 137.5) in root.
        let (root, p, c) = perspectiveTree(CATransform3DMakeTranslation(0, 0, 100))
        #expect(close(c.convert(CGPoint(x: 0, y: 0), to: p), CGPoint(x: 37.5, y: 37.5)))
        #expect(close(c.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 137.5, y: 137.5)))
        // The anchor itself does not move.
        #expect(close(c.convert(CGPoint(x: 50, y: 50), to: p), CGPoint(x: 100, y: 100)))
        // The way back unprojects onto c's plane.
        #expect(close(c.convert(CGPoint(x: 37.5, y: 37.5), from: p), CGPoint(x: 0, y: 0)))
        #expect(close(root.convert(CGPoint(x: 137.5, y: 137.5), to: c), CGPoint(x: 0, y: 0)))
    }

    @Test func perspectiveOfALayerRotatedAboutY() {
        // c rotated θ = π/3 about y: a point (x, 0) from the anchor goes to (x cos θ, 0, −x sin θ)
        // (row vectors: m13 = −sin θ), then w = 1 + x sin θ/500 and the screen x is 100 + x cos θ/w.
        let theta = CGFloat.pi / 3
        let (_, p, c) = perspectiveTree(CATransform3DMakeRotation(theta, 0, 1, 0))
        for x: CGFloat in [-50, -20, 10, 50] {
            let w = 1 + x * sin(theta) / 500
            let expected = CGPoint(x: 100 + x * cos(theta) / w, y: 100)
            #expect(close(c.convert(CGPoint(x: 50 + x, y: 50), to: p), expected))
        }
        // Off the horizontal axis the y offset is divided by the same w.
        let w = 1 + 50 * sin(theta) / 500
        #expect(close(c.convert(CGPoint(x: 100, y: 0), to: p), CGPoint(x: 100 + 50 * cos(theta) / w, y: 100 - 50 / w)))
    }

    @Test func convertRoundTripsAreTheIdentity() {
        // convert(from:) ∘ convert(to:) ≈ identity on the layer's own plane, through rotations and
        // perspective.
        let tilt = CATransform3DConcat(CATransform3DMakeRotation(0.7, 0, 1, 0), CATransform3DMakeRotation(-0.4, 1, 0, 0))
        let (root, p, c) = perspectiveTree(tilt)
        let (root2, a, b, d) = rotatedTree()
        defer { withExtendedLifetime(root2) {} }  // layers hold their superlayer weakly
        #expect(c.rootLayer === root && b.rootLayer === root2 && d.rootLayer === root2)
        for point in [CGPoint(x: 0, y: 0), CGPoint(x: 13, y: 87), CGPoint(x: 100, y: 100), CGPoint(x: -20, y: 40)] {
            #expect(close(c.convert(c.convert(point, to: root), from: root), point, 1e-7))
            #expect(close(c.convert(c.convert(point, to: p), from: p), point, 1e-7))
            #expect(close(root.convert(root.convert(point, to: c), from: c), point, 1e-7))
            #expect(close(b.convert(b.convert(point, to: d), from: d), point, 1e-9))
            #expect(close(a.convert(a.convert(point, from: b), to: b), point, 1e-9))
        }
    }

    @Test func sublayerTransformWithoutPerspective() {
        // §6: sublayerTransform about the anchor: p rotates its sublayers 90° about (100, 100).
        let root = makeRoot()
        let p = makeLayer(bounds: CGRect(x: 0, y: 0, width: 200, height: 200), position: CGPoint(x: 100, y: 100), in: root)
        p.sublayerTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let c = makeLayer(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 150, y: 100), in: p)
        // c's centre sits 50 right of the anchor; rotated 90° it is 50 below: (100, 150).
        #expect(close(c.convert(CGPoint(x: 5, y: 5), to: p), CGPoint(x: 100, y: 150)))
        #expect(close(c.convert(CGPoint(x: 5, y: 5), to: root), CGPoint(x: 100, y: 150)))
        // p's own frame is unaffected by its sublayerTransform.
        #expect(close(p.frame, CGRect(x: 0, y: 0, width: 200, height: 200)))
    }

    // MARK: CATransformLayer

    @Test func transformLayerChildrenKeepTheir3D() {
        // §6: a CATransformLayer does not flatten. A face rotated π/2 about y is edge-on; inside a
        // transform layer rotated −π/2 about y the two rotations cancel and the face is flat again,
        // while a plain container flattens the edge-on face into a line first.
        let root = makeRoot()
        let tl = makeLayer(CATransformLayer(), bounds: .zero, position: CGPoint(x: 100, y: 100), in: root)
        let face = makeLayer(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: .zero,
                             transform: CATransform3DMakeRotation(.pi / 2, 0, 1, 0), in: tl)
        // Edge-on: both ends of the face's horizontal midline land on the same screen x.
        let left = face.convert(CGPoint(x: 0, y: 10), to: root)
        let right = face.convert(CGPoint(x: 20, y: 10), to: root)
        #expect(close(left, CGPoint(x: 100, y: 100)))
        #expect(close(right, CGPoint(x: 100, y: 100)))
        #expect(close(face.convert(CGPoint(x: 10, y: 0), to: root), CGPoint(x: 100, y: 90)))

        // Turn the transform layer the other way: the face faces the viewer, 20 wide.
        let tl2 = makeLayer(CATransformLayer(), bounds: .zero, position: CGPoint(x: 100, y: 100),
                            transform: CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), in: root)
        let face2 = makeLayer(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: .zero,
                              transform: CATransform3DMakeRotation(.pi / 2, 0, 1, 0), in: tl2)
        #expect(close(face2.convert(CGPoint(x: 0, y: 10), to: root), CGPoint(x: 90, y: 100)))
        #expect(close(face2.convert(CGPoint(x: 20, y: 10), to: root), CGPoint(x: 110, y: 100)))

        // The same with a plain (flattening) container: the face is flattened edge-on in the
        // container's plane, and stays a line whatever the container does.
        let plain = makeLayer(bounds: .zero, position: CGPoint(x: 100, y: 100),
                              transform: CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), in: root)
        let face3 = makeLayer(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: .zero,
                              transform: CATransform3DMakeRotation(.pi / 2, 0, 1, 0), in: plain)
        let l3 = face3.convert(CGPoint(x: 0, y: 10), to: root)
        let r3 = face3.convert(CGPoint(x: 20, y: 10), to: root)
        #expect(close(l3.x, r3.x, 1e-6))
    }

    @Test func transformLayerChildrenShareThePerspectiveOfTheFlatteningAncestor() {
        // §6: sublayers of a CATransformLayer "share the 3D space of the nearest flattening
        // ancestor", so the ancestor's perspective applies to their real depth: a face translated
        // 100 towards the viewer inside a transform layer is magnified by 1/(1 − 100/500) = 1.25.
        let root = makeRoot()
        let p = makeLayer(bounds: CGRect(x: 0, y: 0, width: 200, height: 200), position: CGPoint(x: 200, y: 200), in: root)
        p.sublayerTransform = perspective(500)
        let tl = makeLayer(CATransformLayer(), bounds: .zero, position: CGPoint(x: 100, y: 100),
                           transform: CATransform3DMakeTranslation(0, 0, 100), in: p)
        let face = makeLayer(bounds: CGRect(x: 0, y: 0, width: 20, height: 20), position: .zero, in: tl)
        #expect(close(face.convert(CGPoint(x: 0, y: 0), to: p), CGPoint(x: 100 - 12.5, y: 100 - 12.5)))
        #expect(close(face.convert(CGPoint(x: 20, y: 20), to: p), CGPoint(x: 112.5, y: 112.5)))
    }
}

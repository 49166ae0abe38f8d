import Foundation
import Testing
@testable import LayercastEngine

// Hit testing (docs/engine-model.md §7). `hitTest(p)` takes p in the receiver's superlayer
// coordinates; every tree here hangs from a root whose bounds origin is 0 and whose position is
// its centre, so its superlayer space equals its bounds space. Trees are built bottom-up, so no
// implicit animation is involved.

/// Sets up `l` (a new CALayer unless given) and adds it to `parent`.
private func makeLayer(_ l: CALayer = CALayer(), frame: CGRect, transform: CATransform3D = CATransform3DIdentity,
                       in parent: CALayer? = nil, name: String? = nil) -> CALayer {
    l.bounds = CGRect(origin: .zero, size: frame.size)
    l.position = CGPoint(x: frame.midX, y: frame.midY)
    l.transform = transform
    l.name = name
    parent?.addSublayer(l)
    return l
}

private func makeRoot(_ size: CGFloat = 100) -> CALayer {
    makeLayer(frame: CGRect(x: 0, y: 0, width: size, height: size), name: "root")
}

@Suite("Hit testing")
struct HitTestTests {
    @Test func containsIsHalfOpen() {
        // §7.5: minX ≤ x < maxX, minY ≤ y < maxY, as CGRectContainsPoint.
        let root = makeRoot()
        #expect(root.contains(CGPoint(x: 0, y: 0)))
        #expect(root.contains(CGPoint(x: 99.999, y: 50)))
        #expect(!root.contains(CGPoint(x: 100, y: 50)))
        #expect(!root.contains(CGPoint(x: 50, y: 100)))
        #expect(!root.contains(CGPoint(x: -0.001, y: 50)))
        #expect(root.hitTest(CGPoint(x: 0, y: 0)) === root)
        #expect(root.hitTest(CGPoint(x: 100, y: 50)) == nil)
        #expect(root.hitTest(CGPoint(x: 50, y: 100)) == nil)
    }

    @Test func containsUsesBoundsCoordinates() {
        // contains(_:) takes the layer's own coordinates: a bounds origin of (50, 50) moves the box.
        let l = CALayer()
        l.bounds = CGRect(x: 50, y: 50, width: 10, height: 10)
        #expect(l.contains(CGPoint(x: 50, y: 50)))
        #expect(!l.contains(CGPoint(x: 5, y: 5)))
    }

    @Test func hitTestReturnsTheDeepestLayer() {
        let root = makeRoot()
        let a = makeLayer(frame: CGRect(x: 10, y: 10, width: 50, height: 50), in: root, name: "a")
        let b = makeLayer(frame: CGRect(x: 10, y: 10, width: 20, height: 20), in: a, name: "b")   // (20…40) in root
        #expect(root.hitTest(CGPoint(x: 25, y: 25)) === b)
        #expect(root.hitTest(CGPoint(x: 45, y: 45)) === a)
        #expect(root.hitTest(CGPoint(x: 80, y: 80)) === root)
        #expect(root.hitTest(CGPoint(x: 120, y: 80)) == nil)
        // A sublayer outside its superlayer's bounds is still hit (no masksToBounds).
        let outside = makeLayer(frame: CGRect(x: 60, y: 0, width: 20, height: 20), in: a, name: "outside") // (70…90, 10…30)
        #expect(root.hitTest(CGPoint(x: 75, y: 15)) === outside)
        // Called on a sublayer, p is in that sublayer's superlayer coordinates.
        #expect(a.hitTest(CGPoint(x: 25, y: 25)) === b)
        #expect(b.hitTest(CGPoint(x: 25, y: 25)) === b)
        #expect(b.hitTest(CGPoint(x: 5, y: 5)) == nil)
    }

    @Test func siblingsAreSearchedTopToBottom() {
        // §7.4: the later sibling is on top.
        let root = makeRoot()
        let first = makeLayer(frame: CGRect(x: 10, y: 10, width: 40, height: 40), in: root, name: "first")
        let second = makeLayer(frame: CGRect(x: 30, y: 30, width: 40, height: 40), in: root, name: "second")
        #expect(root.hitTest(CGPoint(x: 40, y: 40)) === second)
        #expect(root.hitTest(CGPoint(x: 20, y: 20)) === first)
        #expect(root.hitTest(CGPoint(x: 60, y: 60)) === second)
    }

    @Test func zPositionBeatsArrayOrder() {
        // §7.4: highest zPosition first, then the later sibling.
        let root = makeRoot()
        let first = CALayer()
        first.zPosition = 1
        _ = makeLayer(first, frame: CGRect(x: 10, y: 10, width: 40, height: 40), in: root, name: "first")
        let second = makeLayer(frame: CGRect(x: 30, y: 30, width: 40, height: 40), in: root, name: "second")
        #expect(root.hitTest(CGPoint(x: 40, y: 40)) === first)
        #expect(root.hitTest(CGPoint(x: 60, y: 60)) === second)
        let third = CALayer()
        third.zPosition = -1
        _ = makeLayer(third, frame: CGRect(x: 30, y: 30, width: 40, height: 40), in: root, name: "third")
        #expect(root.hitTest(CGPoint(x: 60, y: 60)) === second)     // added last but lower
    }

    @Test func aPlainLayerOrdersItsSublayersByZPositionNotByDepth() {
        // §7.4: a plain layer flattens its sublayers and orders them by zPosition (Apple: zPosition
        // "changes the front-to-back ordering of layers onscreen"), not by their depth. Under
        // m34 = −1/500 about (100, 100), `lifted` (zPosition 10) is scaled by 1/(1 − 10/500) ≈ 1.020
        // to 48.98…151.02, `near` (translated 100 towards the viewer, zPosition 0) by 1.25 to
        // 37.5…162.5: nearer and larger, yet below `lifted`.
        let root = makeLayer(frame: CGRect(x: 0, y: 0, width: 200, height: 200), name: "root")
        root.sublayerTransform = perspective(500)
        let lifted = CALayer()
        lifted.zPosition = 10
        _ = makeLayer(lifted, frame: CGRect(x: 50, y: 50, width: 100, height: 100), in: root, name: "lifted")
        let near = makeLayer(frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                             transform: CATransform3DMakeTranslation(0, 0, 100), in: root, name: "near")
        #expect(root.hitTest(CGPoint(x: 100, y: 100)) === lifted)
        #expect(root.hitTest(CGPoint(x: 150.5, y: 100)) === lifted)
        #expect(root.hitTest(CGPoint(x: 151.5, y: 100)) === near)
        #expect(root.hitTest(CGPoint(x: 40, y: 100)) === near)
        lifted.zPosition = 0                                       // now array order: near is later
        #expect(root.hitTest(CGPoint(x: 100, y: 100)) === near)
    }

    @Test func nothingBeyondAFlatPlanesVanishingLineIsHit() {
        // §7.2: `plane` (100 × 100 centred at (100, 100)) is turned θ = 80° about y under
        // m34 = −1/500, so its point u from the centre along x is seen at
        // x = 100 + u cos θ/(1 + u sin θ/500), which tends to 100 + 500 cot θ ≈ 188.16 and never
        // passes it. `strip`, a wide sublayer flattened into the plane, is seen left of that line.
        // At x = 195 unprojecting gives u ≈ −7055 at w ≈ −12.9, behind the eye: nothing of the plane
        // is there, though u lies inside the strip (a renderer that ignored w would report it).
        let root = makeLayer(frame: CGRect(x: 0, y: 0, width: 200, height: 200), name: "root")
        root.sublayerTransform = perspective(500)
        let theta = 80 * CGFloat.pi / 180
        let plane = makeLayer(frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                              transform: CATransform3DMakeRotation(theta, 0, 1, 0), in: root, name: "plane")
        let strip = makeLayer(frame: CGRect(x: -9950, y: 0, width: 20000, height: 100), in: plane, name: "strip")
        #expect(abs(100 + 500 * cos(theta) / sin(theta) - 188.16) < 0.01)
        let u = 95 / (cos(theta) - 95 * sin(theta) / 500)          // where x = 195 unprojects
        #expect(abs(u + 7055) < 1 && 1 + u * sin(theta) / 500 < -12)
        #expect(root.hitTest(CGPoint(x: 150, y: 100)) === strip)   // u ≈ 665.2, w ≈ 2.31
        #expect(root.hitTest(CGPoint(x: 60, y: 100)) === strip)    // u ≈ −158.5, w ≈ 0.69
        #expect(root.hitTest(CGPoint(x: 195, y: 100)) === root)
        #expect(root.hitTest(CGPoint(x: 199, y: 150)) === root)
    }

    @Test func hiddenLayersAndTheirSubtreesAreSkipped() {
        // §7.1: a hidden layer and its subtree are never hit; opacity does not matter.
        let root = makeRoot()
        let a = CALayer()
        a.isHidden = true
        _ = makeLayer(a, frame: CGRect(x: 10, y: 10, width: 50, height: 50), in: root, name: "a")
        let b = makeLayer(frame: CGRect(x: 10, y: 10, width: 20, height: 20), in: a, name: "b")
        #expect(root.hitTest(CGPoint(x: 25, y: 25)) === root)
        #expect(b.hitTest(CGPoint(x: 15, y: 15)) === b)   // b itself is not hidden

        let transparent = CALayer()
        transparent.opacity = 0
        _ = makeLayer(transparent, frame: CGRect(x: 70, y: 70, width: 20, height: 20), in: root, name: "transparent")
        #expect(root.hitTest(CGPoint(x: 80, y: 80)) === transparent)

        let hiddenRoot = makeRoot()
        hiddenRoot.isHidden = true
        #expect(hiddenRoot.hitTest(CGPoint(x: 50, y: 50)) == nil)
    }

    @Test func masksToBoundsClipsTheSubtree() {
        // §7.3: with masksToBounds a point outside the bounds hits nothing in the subtree.
        let root = makeRoot()
        let a = makeLayer(frame: CGRect(x: 10, y: 10, width: 50, height: 50), in: root, name: "a")
        let c = makeLayer(frame: CGRect(x: 40, y: 40, width: 40, height: 40), in: a, name: "c")   // (50…90) in root
        #expect(root.hitTest(CGPoint(x: 70, y: 70)) === c)
        a.masksToBounds = true
        #expect(root.hitTest(CGPoint(x: 70, y: 70)) === root)
        #expect(root.hitTest(CGPoint(x: 55, y: 55)) === c)          // inside both
        #expect(root.hitTest(CGPoint(x: 60, y: 55)) === root)       // a's maxX (60) is outside a
    }

    @Test func transformLayerReturnsOnlyItsSublayers() {
        // §7.5: a CATransformLayer has no plane of its own.
        let root = makeRoot()
        let tl = makeLayer(CATransformLayer(), frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, name: "tl")
        let face = makeLayer(frame: CGRect(x: 10, y: 10, width: 20, height: 20), in: tl, name: "face")
        #expect(root.hitTest(CGPoint(x: 15, y: 15)) === face)
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === root)       // inside tl's bounds, no face
        #expect(tl.hitTest(CGPoint(x: 50, y: 50)) == nil)
        #expect(tl.hitTest(CGPoint(x: 15, y: 15)) === face)
    }

    @Test
    func transformLayerOrdersItsSublayersByDepth() {
        // §7.4 (choice): in a CATransformLayer candidates are ordered by their depth at the hit
        // point, nearest first. `near` is 10 towards the viewer, `far` 10 away and added later.
        let root = makeRoot()
        let tl = makeLayer(CATransformLayer(), frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, name: "tl")
        let near = makeLayer(frame: CGRect(x: 20, y: 20, width: 40, height: 40),
                             transform: CATransform3DMakeTranslation(0, 0, 10), in: tl, name: "near")
        let far = makeLayer(frame: CGRect(x: 40, y: 40, width: 40, height: 40),
                            transform: CATransform3DMakeTranslation(0, 0, -10), in: tl, name: "far")
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === near)
        #expect(root.hitTest(CGPoint(x: 70, y: 70)) === far)
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === near)
    }

    @Test func transformLayerDepthOrderWhenItIsTheRoot() {
        // The same rule when hitTest is called on the transform layer itself.
        let tl = makeLayer(CATransformLayer(), frame: CGRect(x: 0, y: 0, width: 100, height: 100), name: "tl")
        let near = makeLayer(frame: CGRect(x: 20, y: 20, width: 40, height: 40),
                             transform: CATransform3DMakeTranslation(0, 0, 10), in: tl, name: "near")
        _ = makeLayer(frame: CGRect(x: 40, y: 40, width: 40, height: 40),
                      transform: CATransform3DMakeTranslation(0, 0, -10), in: tl, name: "far")
        #expect(tl.hitTest(CGPoint(x: 50, y: 50)) === near)
    }

    @Test func backFacingLayersAreHitOnlyWhenDoubleSided() {
        // §7.2: rotated π about y the layer shows its back; not doubleSided → not hit, nor its subtree.
        let root = makeRoot()
        let back = CALayer()
        back.isDoubleSided = false
        _ = makeLayer(back, frame: CGRect(x: 10, y: 10, width: 40, height: 40),
                      transform: CATransform3DMakeRotation(.pi, 0, 1, 0), in: root, name: "back")
        let child = makeLayer(frame: CGRect(x: 0, y: 0, width: 40, height: 40), in: back, name: "child")
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === root)
        back.isDoubleSided = true
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === child)
        child.removeFromSuperlayer()
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === back)
        // Mirrored: the point 5 right of back's left edge is 5 left of its right edge in its bounds.
        #expect(back.convert(CGPoint(x: 15, y: 30), from: root).x > 30)
        // A front-facing layer with doubleSided = false is hit as usual.
        let front = CALayer()
        front.isDoubleSided = false
        _ = makeLayer(front, frame: CGRect(x: 60, y: 60, width: 30, height: 30), in: root, name: "front")
        #expect(root.hitTest(CGPoint(x: 70, y: 70)) === front)
    }

    @Test func facingIsJudgedInTheFlatteningPlane() {
        // §6/§7.2: a plain container flattens its sublayers into its own plane first, so a
        // doubleSided = false child is judged against that plane: with an identity transform it
        // stays hittable even when the (double-sided) container is flipped π about y. This is what
        // Core Animation does (a CALayer "card" with two single-sided sublayers keeps showing the
        // front whichever way it is turned; the known fix is a CATransformLayer container).
        let root = makeRoot()
        let container = makeLayer(frame: CGRect(x: 10, y: 10, width: 40, height: 40),
                                  transform: CATransform3DMakeRotation(.pi, 0, 1, 0), in: root, name: "container")
        let child = CALayer()
        child.isDoubleSided = false
        _ = makeLayer(child, frame: CGRect(x: 0, y: 0, width: 40, height: 40), in: container, name: "child")
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === child)

        // In a CATransformLayer the child keeps its 3D orientation and faces away: not hit.
        let card = makeLayer(CATransformLayer(), frame: CGRect(x: 60, y: 60, width: 30, height: 30),
                             transform: CATransform3DMakeRotation(.pi, 0, 1, 0), in: root, name: "card")
        let front = CALayer()
        front.isDoubleSided = false
        _ = makeLayer(front, frame: CGRect(x: 0, y: 0, width: 30, height: 30), in: card, name: "front")
        let back = CALayer()
        back.isDoubleSided = false
        _ = makeLayer(back, frame: CGRect(x: 0, y: 0, width: 30, height: 30),
                      transform: CATransform3DMakeRotation(.pi, 0, 1, 0), in: card, name: "back")
        #expect(root.hitTest(CGPoint(x: 75, y: 75)) === back)
        card.transform = CATransform3DIdentity
        #expect(root.hitTest(CGPoint(x: 75, y: 75)) === front)
    }

    @Test func perspectiveHitsTheProjectionNotTheFlatFrame() {
        // p is 200 × 200 with sublayerTransform m34 = −1/500; c (100 × 100 centred on p's anchor)
        // is rotated π/3 about y. Along y = 100 the point x from c's centre is seen at
        // 100 + x cos θ/(1 + x sin θ/500): the edges are at ≈ 72.63 (x = −50) and ≈ 123.01 (x = 50),
        // where an orthographic view would put them at 75 and 125, and the flat frame at 50 and 150.
        let p = makeLayer(frame: CGRect(x: 0, y: 0, width: 200, height: 200), name: "p")
        p.sublayerTransform = perspective(500)
        let theta = CGFloat.pi / 3
        let c = makeLayer(frame: CGRect(x: 50, y: 50, width: 100, height: 100),
                          transform: CATransform3DMakeRotation(theta, 0, 1, 0), in: p, name: "c")
        let leftEdge = 100 - 50 * cos(theta) / (1 - 50 * sin(theta) / 500)
        let rightEdge = 100 + 50 * cos(theta) / (1 + 50 * sin(theta) / 500)
        #expect(abs(leftEdge - 72.63) < 0.01 && abs(rightEdge - 123.01) < 0.01)
        #expect(p.hitTest(CGPoint(x: 100, y: 100)) === c)
        #expect(p.hitTest(CGPoint(x: 73, y: 100)) === c)          // outside the orthographic image
        #expect(p.hitTest(CGPoint(x: 72.5, y: 100)) === p)
        #expect(p.hitTest(CGPoint(x: 122.9, y: 100)) === c)
        #expect(p.hitTest(CGPoint(x: 124, y: 100)) === p)         // inside the orthographic image
        #expect(p.hitTest(CGPoint(x: 140, y: 100)) === p)         // inside the flat frame
        #expect(p.hitTest(CGPoint(x: 55, y: 100)) === p)
    }

    @Test
    func hitTestOnASublayerIncludesItsSuperlayersSublayerTransform() {
        // §7: hitTest(p) takes p in the superlayer's coordinates, and by §6 a layer maps into its
        // superlayer's space through S(superlayer), the superlayer's sublayerTransform about its
        // anchor — the same map convert(_:to:) uses. p rotates its sublayers 90° about (100, 100),
        // so c (10 × 10 at (150, 100)) shows at (100, 150).
        let p = makeLayer(frame: CGRect(x: 0, y: 0, width: 200, height: 200), name: "p")
        p.sublayerTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let c = makeLayer(frame: CGRect(x: 145, y: 95, width: 10, height: 10), in: p, name: "c")
        let shown = c.convert(CGPoint(x: 5, y: 5), to: p)
        #expect(abs(shown.x - 100) < 1e-9 && abs(shown.y - 150) < 1e-9)
        #expect(p.hitTest(shown) === c)                      // through the parent: fine
        #expect(c.hitTest(shown) === c)                      // asked directly, same coordinates
        #expect(c.hitTest(CGPoint(x: 150, y: 100)) == nil)   // where c would be without it
    }

    @Test func edgeOnLayersAreNotHit() {
        // §7.2: if unprojecting fails (the plane is edge-on) the subtree is not hit. An exact
        // quarter turn about y (cos written as 0, not cos(π/2) ≈ 6e-17) makes the map singular.
        let quarterTurn = CATransform3D(m11: 0, m12: 0, m13: -1, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                        m31: 1, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
        let root = makeRoot()
        let edge = makeLayer(frame: CGRect(x: 10, y: 10, width: 40, height: 40), transform: quarterTurn, in: root, name: "edge")
        _ = makeLayer(frame: CGRect(x: 0, y: 0, width: 40, height: 40), in: edge, name: "child")
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === root)
        #expect(root.hitTest(CGPoint(x: 31, y: 30)) === root)
        // With the computed rotation the plane is edge-on up to rounding: still nothing off its line.
        edge.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        #expect(root.hitTest(CGPoint(x: 31, y: 30)) === root)
        #expect(root.hitTest(CGPoint(x: 29, y: 30)) === root)
    }

    @Test func hitTestAtATimeUsesThePresentationTreeAndReturnsModelLayers() {
        // hitTest(_:at:) tests what is on screen at media time t and returns the model layer.
        let clock = ManualClock()
        let context = SceneContext(clock: clock)
        let root = makeLayer(frame: CGRect(x: 0, y: 0, width: 400, height: 100), name: "root")
        let moving = makeLayer(frame: CGRect(x: 40, y: 40, width: 20, height: 20), in: root, name: "moving")
        context.run {
            let a = CABasicAnimation(keyPath: "position")
            a.fromValue = CGPoint(x: 50, y: 50)
            a.toValue = CGPoint(x: 250, y: 50)
            a.duration = 2
            moving.add(a, forKey: "move")
        }
        // At t = 1 the presented position is (150, 50).
        #expect(root.hitTest(CGPoint(x: 150, y: 50), at: 1) === moving)
        #expect(root.hitTest(CGPoint(x: 50, y: 50), at: 1) === root)
        #expect(root.hitTest(CGPoint(x: 150, y: 50)) === root)      // the model layer is still at (50, 50)
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === moving)
        #expect(root.hitTest(CGPoint(x: 50, y: 50), at: 3) === moving)  // the animation is over
        // The presentation copy's own hitTest returns presentation copies.
        let copy = root.presentation(at: 1)!
        let hit = copy.hitTest(CGPoint(x: 150, y: 50))
        #expect(hit != nil && hit !== moving && hit?.model() === moving)
    }

    @Test func hitTestAtATimeSeesAnimatedHiddenAndTransform() {
        let context = SceneContext(clock: ManualClock())
        let root = makeRoot()
        let l = makeLayer(frame: CGRect(x: 20, y: 20, width: 20, height: 20), in: root, name: "l")
        context.run {
            let hide = CABasicAnimation(keyPath: "hidden")
            (hide.fromValue, hide.toValue) = (true, true)
            hide.duration = 1
            l.add(hide, forKey: "hide")
            let scale = CABasicAnimation(keyPath: "transform.scale")
            (scale.fromValue, scale.toValue) = (CGFloat(2), CGFloat(2))
            scale.duration = 1
            scale.beginTime = 2
            l.add(scale, forKey: "scale")
        }
        #expect(root.hitTest(CGPoint(x: 30, y: 30), at: 0.5) === root)   // hidden while animated
        #expect(root.hitTest(CGPoint(x: 30, y: 30), at: 1.5) === l)
        #expect(root.hitTest(CGPoint(x: 15, y: 15), at: 1.5) === root)
        #expect(root.hitTest(CGPoint(x: 15, y: 15), at: 2.5) === l)      // scaled ×2 about (30, 30)
    }

    @Test func hitTestAtATimeAnswersWhatAPresentationCopyAnswers() {
        // hitTest(_:at:) evaluates the model tree where the test goes; it must answer exactly what
        // `presentation(at:)?.hitTest(_:)?.model()` does, through perspective, a transform layer,
        // clipping, a faster and offset subtree, animated order, visibility, turns and moves; a
        // tree holding a class of its own, whose `contains` is round, is copied.
        let context = SceneContext(clock: ManualClock())
        let root = makeRoot(200)
        root.sublayerTransform = perspective(500)
        let tl = makeLayer(CATransformLayer(), frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root, name: "tl")
        _ = makeLayer(frame: CGRect(x: 10, y: 10, width: 50, height: 50), transform: CATransform3DMakeTranslation(0, 0, 10), in: tl, name: "near")
        _ = makeLayer(frame: CGRect(x: 30, y: 30, width: 50, height: 50), transform: CATransform3DMakeRotation(.pi / 5, 0, 1, 0), in: tl, name: "turned")
        let clip = makeLayer(frame: CGRect(x: 100, y: 0, width: 100, height: 100), in: root, name: "clip")
        clip.masksToBounds = true
        clip.speed = 2
        clip.timeOffset = 0.3
        let a = makeLayer(frame: CGRect(x: 20, y: 20, width: 100, height: 40), in: clip, name: "a")
        let b = makeLayer(frame: CGRect(x: 40, y: 10, width: 30, height: 80), in: clip, name: "b")
        let back = makeLayer(frame: CGRect(x: 0, y: 100, width: 100, height: 100), transform: CATransform3DMakeRotation(.pi, 0, 1, 0), in: root, name: "back")
        back.isDoubleSided = false
        let inner = makeLayer(frame: CGRect(x: 160, y: 160, width: 30, height: 30), in: root, name: "inner")
        context.run {
            let z = CABasicAnimation(keyPath: "zPosition")
            (z.fromValue, z.toValue, z.duration) = (CGFloat(-5), CGFloat(5), 2)
            a.add(z, forKey: "z")                            // under b, then above it
            let hide = CABasicAnimation(keyPath: "hidden")
            (hide.fromValue, hide.toValue, hide.duration, hide.beginTime) = (true, true, 0.5, 1)
            b.add(hide, forKey: "hide")
            let spin = CABasicAnimation(keyPath: "transform.rotation.y")
            (spin.fromValue, spin.toValue, spin.duration) = (CGFloat(0), CGFloat.pi, 3)
            back.add(spin, forKey: "spin")
            let move = CABasicAnimation(keyPath: "position")
            (move.fromValue, move.toValue, move.duration) = (CGPoint(x: 175, y: 175), CGPoint(x: 120, y: 120), 3)
            inner.add(move, forKey: "move")
        }
        var hits = Set<String>()
        for t in stride(from: 0.0, through: 3.5, by: 0.25) {
            for x in stride(from: -5.0, through: 205, by: 7) {
                for y in stride(from: -5.0, through: 205, by: 7) {
                    let p = CGPoint(x: x, y: y)
                    let copied = root.presentation(at: t)?.hitTest(p)?.model()
                    #expect(root.hitTest(p, at: t) === copied, "at \(p), t = \(t)")
                    hits.insert(copied?.name ?? "none")
                    let q = CGPoint(x: x - 100, y: y)                     // in clip's coordinates
                    #expect(a.hitTest(q, at: t) === a.presentation(at: t)?.hitTest(q)?.model(), "a at \(q), t = \(t)")
                }
            }
        }
        #expect(hits == ["none", "root", "near", "turned", "clip", "a", "b", "back", "inner"])
        // A layer whose `contains` is its own: its bounds' corner is not in it, whichever way.
        let round = makeLayer(RoundLayer(), frame: CGRect(x: 100, y: 100, width: 60, height: 60), in: root, name: "round")
        #expect(root.hitTest(CGPoint(x: 103, y: 103), at: 0) === root)
        #expect(root.hitTest(CGPoint(x: 130, y: 130), at: 0) === round)
        #expect(round.hitTest(CGPoint(x: 103, y: 103), at: 0) == nil)
        #expect(root.presentation(at: 1)!.hitTest(CGPoint(x: 150, y: 150), at: 1) == nil)   // a copy has no presentation
    }

    @Test func overlappingRainPacketsHitOnlyTheTopmost() {
        // docs/scenes.md §1: the seed asks every packet's presentation layer and registers all hits;
        // the rule here is the topmost packet only, which root.hitTest(_:at:) gives.
        let context = SceneContext(clock: ManualClock())
        let background = makeLayer(frame: CGRect(x: 0, y: 0, width: 414, height: 736), name: "background")
        var packets: [CALayer] = []
        context.run {
            for (i, x) in [CGFloat(100), CGFloat(120)].enumerated() {
                let packet = CALayer()
                packet.name = "packet\(i)"
                packet.bounds = CGRect(x: 0, y: 0, width: 44, height: 62.5)
                packet.anchorPoint = .zero
                packet.position = CGPoint(x: 0, y: -62.5)
                background.addSublayer(packet)
                let fall = CAKeyframeAnimation(keyPath: "position")
                fall.values = [CGPoint(x: x, y: 0), CGPoint(x: x, y: 736)]
                fall.duration = 4
                fall.timingFunction = CAMediaTimingFunction(name: .linear)
                packet.add(fall, forKey: "fall")
                packets.append(packet)
            }
        }
        // At t = 2 both packets' tops are at y = 368: packet0 covers x 100…144, packet1 120…164.
        let tap = CGPoint(x: 130, y: 380)
        let seedHits = packets.filter { $0.presentation(at: 2)!.hitTest(tap) != nil }
        #expect(seedHits.count == 2)                                 // the seed's double award
        #expect(background.hitTest(tap, at: 2) === packets[1])      // the later sibling is on top
        #expect(background.hitTest(CGPoint(x: 110, y: 380), at: 2) === packets[0])
        #expect(background.hitTest(CGPoint(x: 110, y: 10), at: 2) === background)
        #expect(background.hitTest(tap, at: 5) === background)      // fall over: back above the screen
    }
}

/// A layer that holds only the points of the circle inscribed in its bounds: a `contains` of a
/// class from outside the engine.
private final class RoundLayer: CALayer {
    override init() { super.init() }
    required init(layer: Any) { super.init(layer: layer) }

    override func contains(_ p: CGPoint) -> Bool {
        let b = bounds
        let (dx, dy) = (p.x - b.midX, p.y - b.midY)
        return dx * dx + dy * dy < b.width * b.width / 4
    }
}

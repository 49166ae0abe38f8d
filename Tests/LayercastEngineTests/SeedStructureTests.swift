import Foundation
import Testing
@testable import LayercastEngine

// The seed scenes' own layer structures (docs/scenes.md), built with
// the API the way the iOS code writes them, checked against numbers worked out by hand.

// MARK: - Seed 2: the cube (docs/scenes.md §2)

private let cubeUnit: CGFloat = 20
private let h = cubeUnit / 2

private enum Face: String, CaseIterable {
    case top, bottom, back, front, left, right

    /// The seed's face transforms: `CATransform3DRotate(CATransform3DMakeTranslation(…), …)`.
    var transform: CATransform3D {
        switch self {
        case .top: CATransform3DMakeTranslation(0, 0, h)
        case .bottom: CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -h), .pi, 1, 0, 0)
        case .back: CATransform3DRotate(CATransform3DMakeTranslation(0, -h, 0), .pi / 2, 1, 0, 0)
        case .front: CATransform3DRotate(CATransform3DMakeTranslation(0, h, 0), -.pi / 2, 1, 0, 0)
        case .left: CATransform3DRotate(CATransform3DMakeTranslation(-h, 0, 0), -.pi / 2, 0, 1, 0)
        case .right: CATransform3DRotate(CATransform3DMakeTranslation(h, 0, 0), .pi / 2, 0, 1, 0)
        }
    }

    /// The face's centre in cube space and its outward normal, worked out by hand from the seed's
    /// description: translate by ±h along the face's axis, the front side turned outwards.
    var centreAndNormal: (SIMD3<Double>, SIMD3<Double>) {
        let h = Double(cubeUnit / 2)
        switch self {
        case .top: return ([0, 0, h], [0, 0, 1])
        case .bottom: return ([0, 0, -h], [0, 0, -1])
        case .back: return ([0, -h, 0], [0, -1, 0])
        case .front: return ([0, h, 0], [0, 1, 0])
        case .left: return ([-h, 0, 0], [-1, 0, 0])
        case .right: return ([h, 0, 0], [1, 0, 0])
        }
    }
}

/// The parent transform of the seed: rotate(π/4 about x) then rotate(−π/4 about z), written as the
/// seed writes it. With row vectors CATransform3DRotate(t, …) applies the new rotation first, so a
/// point is turned −π/4 about z, then π/4 about x (CATransform3D reference: CATransform3DRotate).
private func cubeParentTransform() -> CATransform3D {
    var t = CATransform3DIdentity
    t = CATransform3DRotate(t, .pi / 4, 1, 0, 0)
    t = CATransform3DRotate(t, -.pi / 4, 0, 0, 1)
    return t
}

/// The same map on a vector, by hand: rotation about z by a (row vectors: x' = x cos a − y sin a,
/// y' = x sin a + y cos a), then about x by b (y' = y cos b − z sin b, z' = y sin b + z cos b).
private func parentRotation(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let a = -Double.pi / 4, b = Double.pi / 4
    let x1 = v.x * cos(a) - v.y * sin(a), y1 = v.x * sin(a) + v.y * cos(a), z1 = v.z
    return [x1, y1 * cos(b) - z1 * sin(b), y1 * sin(b) + z1 * cos(b)]
}

private struct CubeScene {
    let root: CALayer
    let parent: CALayer
    let cube: CALayer
    let faces: [Face: CALayer]
}

/// root (200 × 200 plain layer) ⊃ parent CATransformLayer at (100, 100) ⊃ cube 0 at key point
/// (−h, −u) ⊃ six faces, built leaf-first as the seed's getFaceWithTransform/getCube… do.
private func makeCube(faces chosen: [Face] = Face.allCases) -> CubeScene {
    var faces: [Face: CALayer] = [:]
    let cube = CATransformLayer()
    cube.position = CGPoint(x: -h, y: -cubeUnit)
    for face in chosen {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: cubeUnit, height: cubeUnit)
        layer.position = .zero
        layer.isDoubleSided = false
        layer.transform = face.transform
        layer.name = face.rawValue
        cube.addSublayer(layer)
        faces[face] = layer
    }
    let parent = CATransformLayer()
    parent.position = CGPoint(x: 100, y: 100)
    parent.transform = cubeParentTransform()
    parent.addSublayer(cube)
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
    root.position = CGPoint(x: 100, y: 100)
    root.addSublayer(parent)
    return CubeScene(root: root, parent: parent, cube: cube, faces: faces)
}

/// Whether a face, as projected into the root, keeps the orientation of an unrotated layer
/// (its x and y axes turn the same way as on a y-down screen): the side the viewer sees is its front.
private func facesViewer(_ face: CALayer, in root: CALayer) -> Bool {
    let o = face.convert(CGPoint(x: 0, y: 0), to: root)
    let ex = face.convert(CGPoint(x: cubeUnit, y: 0), to: root)
    let ey = face.convert(CGPoint(x: 0, y: cubeUnit), to: root)
    return (ex.x - o.x) * (ey.y - o.y) - (ex.y - o.y) * (ey.x - o.x) > 1e-9
}

// MARK: - Seed 5: the radar pulse (docs/scenes.md §5)

private struct Radar {
    let root: CALayer
    let pulses: [CALayer]
}

/// Six pulse layers, each with the seed's group: duration 4, repeatCount HUGE, fillMode backwards,
/// beginTime = CACurrentMediaTime() + i·4/6, children transform.scale 0 → 1.5 (no duration: the
/// group's) and opacity keyframes [1, 0.7, 0] at [0, 0.5, 1]. The group's timing function is the
/// seed's default curve unless `groupCurve` is false.
private func makeRadar(context: SceneContext, groupCurve: Bool = true) -> Radar {
    let side: CGFloat = 414
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: side, height: side)
    root.position = CGPoint(x: side / 2, y: side / 2)
    var pulses: [CALayer] = []
    for _ in 0..<6 {
        let pulse = CALayer()
        pulse.bounds = root.bounds
        pulse.position = CGPoint(x: side / 2, y: side / 2)
        pulse.borderColor = CGColor(gray: 0.5, alpha: 1)
        pulse.borderWidth = 1
        pulse.cornerRadius = side / 2
        root.addSublayer(pulse)
        pulses.append(pulse)
    }
    let animationDuration: Double = 4
    context.run {
        for (i, pulse) in pulses.enumerated() {
            let group = CAAnimationGroup()
            group.fillMode = .backwards
            group.beginTime = CACurrentMediaTime() + Double(i) * animationDuration / 6
            group.duration = animationDuration
            group.repeatCount = .infinity
            if groupCurve { group.timingFunction = CAMediaTimingFunction(name: .default) }
            let scale = CABasicAnimation(keyPath: "transform.scale")
            scale.autoreverses = false
            scale.fromValue = Double(0)
            scale.toValue = Double(1.5)
            let opacity = CAKeyframeAnimation(keyPath: "opacity")
            opacity.values = [Double(1), Double(0.7), Double(0)]
            opacity.keyTimes = [0, 0.5, 1]
            group.animations = [scale, opacity]
            pulse.add(group, forKey: "pulsing")
        }
    }
    return Radar(root: root, pulses: pulses)
}

/// The radar values at group fraction f (after the group's curve): scale 1.5·f, opacity piecewise
/// linear through [1, 0.7, 0] at [0, 0.5, 1] (docs/engine-model.md §3.2 linear, §4).
private func radarExpected(_ f: Double) -> (scale: Double, opacity: Double) {
    let opacity = f <= 0.5 ? 1 - 0.3 * (f / 0.5) : 0.7 - 0.7 * ((f - 0.5) / 0.5)
    return (1.5 * f, opacity)
}

// MARK: - Seed 1: the rain packet (docs/scenes.md §1)

@Suite("Seed structures")
struct SeedStructureTests {
    // MARK: Cube

    @Test func cubeShowsTopFrontAndLeftToTheViewer() {
        // By hand: the parent turns each outward normal n by parentRotation; a face is seen from
        // the front when the turned normal has z > 0 (+z points at the viewer). top (0, 0, 1) →
        // (0, −0.71, 0.71): seen; bottom → z −0.71: not; front (0, 1, 0) → (0.71, 0.5, 0.5): seen;
        // back: not; left (−1, 0, 0) → (−0.71, 0.5, 0.5): seen; right: not.
        let scene = makeCube()
        let expectedVisible: Set<Face> = [.top, .front, .left]
        for face in Face.allCases {
            let turned = parentRotation(face.centreAndNormal.1)
            #expect((turned.z > 0) == expectedVisible.contains(face), "hand computation for \(face)")
            #expect(facesViewer(scene.faces[face]!, in: scene.root) == expectedVisible.contains(face), "\(face)")
        }
    }

    @Test func cubeFaceCentresProjectWhereTheHandComputationPutsThem() {
        // Centre c of a face in cube space, + cube position (−h, −u, 0), turned by the parent,
        // + parent position (100, 100); orthographic (no perspective), so the screen point is (x, y).
        let scene = makeCube()
        for face in Face.allCases {
            let c = face.centreAndNormal.0 + SIMD3<Double>(Double(-h), Double(-cubeUnit), 0)
            let turned = parentRotation(c)
            let expected = CGPoint(x: 100 + turned.x, y: 100 + turned.y)
            let centre = scene.faces[face]!.convert(CGPoint(x: h, y: h), to: scene.root)
            #expect(close(centre, expected, 1e-9), "\(face)")
        }
        // The top face's centre, written out: (−10, −20, 10) → about z by −π/4: (−21.21, −7.07, 10)
        // → about x by π/4: (−21.21, −12.07, 2.07) → (78.79, 87.93).
        let top = scene.faces[.top]!.convert(CGPoint(x: h, y: h), to: scene.root)
        #expect(close(top, CGPoint(x: 100 - 15 * 2.0.squareRoot(), y: 100 - 5 - 5 * 2.0.squareRoot()), 1e-9))
    }

    @Test func cubeHitTestsFindOnlyVisibleFaces() {
        // §7.2: single-sided faces seen from behind are never hit; at a visible face's projected
        // centre that face is hit; at a hidden face's projected centre a visible face is hit instead.
        let scene = makeCube()
        let visible: Set<Face> = [.top, .front, .left]
        for face in Face.allCases {
            let centre = scene.faces[face]!.convert(CGPoint(x: h, y: h), to: scene.root)
            let hit = scene.root.hitTest(centre)
            if visible.contains(face) {
                #expect(hit === scene.faces[face], "\(face)")
            } else {
                #expect(hit !== scene.faces[face], "\(face)")
                #expect(visible.contains { scene.faces[$0] === hit }, "\(face) is covered by a visible face")
            }
        }
        // Outside the cube's silhouette only the root is hit (the transform layers have no plane).
        #expect(scene.root.hitTest(CGPoint(x: 150, y: 150)) === scene.root)
    }

    @Test func cubeHitTestAtATimeUsesThePresentationTree() {
        // hitTest(_:at:) copies the tree (transform layers stay transform layers) and returns models.
        let scene = makeCube()
        let centre = scene.faces[.top]!.convert(CGPoint(x: h, y: h), to: scene.root)
        #expect(scene.root.hitTest(centre, at: 0) === scene.faces[.top])
    }

    @Test
    func doubleSidedCubeHitsTheNearestFace() {
        // With double-sided faces (iOS's default) the hidden faces are hit-eligible too; §7.4 orders
        // the candidates in a CATransformLayer by depth, nearest first, so a visible face's centre
        // still hits that face and not the hidden face behind it (later in the sublayer array).
        let scene = makeCube()
        for layer in scene.faces.values { layer.isDoubleSided = true }
        // Points off the face's diagonals: the ray through the face centre leaves the cube exactly
        // on an edge, where the half-open bounds of the hidden faces happen to miss it.
        for face in [Face.top, .front, .left] {
            for local in [CGPoint(x: 5, y: 12), CGPoint(x: 12, y: 5), CGPoint(x: 4, y: 7), CGPoint(x: 15, y: 13)] {
                let point = scene.faces[face]!.convert(local, to: scene.root)
                #expect(scene.root.hitTest(point) === scene.faces[face], "\(face) at \(local)")
            }
        }
    }

    @Test func cubeWithOnlyHiddenFacesIsNotHit() {
        // The hidden faces alone: nothing of the cube can be hit anywhere near it.
        let scene = makeCube(faces: [.bottom, .back, .right])
        for face in [Face.bottom, .back, .right] {
            let centre = scene.faces[face]!.convert(CGPoint(x: h, y: h), to: scene.root)
            #expect(scene.root.hitTest(centre) === scene.root, "\(face)")
        }
    }

    @Test func cubePullSetsPositionsWithoutImplicitAnimation() {
        // docs/scenes.md §2 "Pulling": positions set with CATransaction.setDisableActions(true) do not
        // animate; without it a layer in a tree gets an implicit animation.
        let context = SceneContext(clock: ManualClock())
        let scene = makeCube()
        context.run {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            scene.cube.position = CGPoint(x: h, y: -cubeUnit)
            CATransaction.commit()
        }
        #expect(scene.cube.animationKeys() == nil)
        #expect(scene.cube.presentation(at: 0)!.position == CGPoint(x: h, y: -cubeUnit))
        context.run { scene.cube.position = CGPoint(x: h, y: 0) }
        #expect(scene.cube.animationKeys() == ["position"])
        withExtendedLifetime(scene.root) {}
    }

    // MARK: Radar

    @Test func radarPulseValuesWithALinearGroup() {
        // Without the group's curve the numbers are simple: pulse 0 one second in is at f = 1/4:
        // scale 1.5/4 = 0.375, opacity 1 − 0.3·(0.25/0.5) = 0.85.
        let context = SceneContext(clock: ManualClock(now: 100))
        let radar = makeRadar(context: context, groupCurve: false)
        let p0 = radar.pulses[0].presentation(at: 101)!
        #expect(close(p0.transform.m11, 0.375) && close(p0.transform.m22, 0.375) && close(p0.transform.m33, 0.375))
        #expect(abs(Double(p0.opacity) - 0.85) < 1e-6)
        // Pulse 3 begins at 100 + 3·4/6 = 102: backwards fill shows its start, scale 0 and opacity 1.
        let p3 = radar.pulses[3].presentation(at: 101)!
        #expect(p3.transform.m11 == 0 && p3.transform.m22 == 0)
        #expect(p3.opacity == 1)
        // At 105 pulse 0 is one second into its second cycle.
        let again = radar.pulses[0].presentation(at: 105)!
        #expect(close(again.transform.m11, 0.375))
        #expect(abs(Double(again.opacity) - 0.85) < 1e-6)
    }

    @Test func radarPulseValuesWithTheSeedsDefaultCurve() {
        // The seed sets the group's timingFunction to the default curve, so the children see
        // group time 4·default(t/4) (§4): pulse 0 at 1 s has f = default(0.25) ≈ 0.41.
        let context = SceneContext(clock: ManualClock(now: 100))
        let radar = makeRadar(context: context)
        let f = defaultCurve(0.25)
        #expect(abs(f - 0.4094) < 0.001)
        let expected = radarExpected(f)
        let p0 = radar.pulses[0].presentation(at: 101)!
        #expect(close(p0.transform.m11, expected.scale, 1e-6))
        #expect(abs(Double(p0.opacity) - expected.opacity) < 1e-6)
        // Pulse 1 (begin 100 + 2/3) at 101 is 1/3 s in: f = default(1/12).
        let f1 = defaultCurve(1.0 / 12)
        let p1 = radar.pulses[1].presentation(at: 101)!
        #expect(close(p1.transform.m11, radarExpected(f1).scale, 1e-6))
        #expect(abs(Double(p1.opacity) - radarExpected(f1).opacity) < 1e-6)
        // Pulse 3 has not begun: backwards fill, scale 0, opacity 1.
        let p3 = radar.pulses[3].presentation(at: 101)!
        #expect(p3.transform.m11 == 0)
        #expect(p3.opacity == 1)
        // Second cycle of pulse 0, and a late cycle: the same values every 4 s.
        for t: CFTimeInterval in [105, 1101] {
            let p = radar.pulses[0].presentation(at: t)!
            #expect(close(p.transform.m11, expected.scale, 1e-6))
            #expect(abs(Double(p.opacity) - expected.opacity) < 1e-6)
        }
        // Past the opacity midpoint: pulse 0 at 3 s, f = default(0.75) > 0.5.
        let f3 = defaultCurve(0.75)
        #expect(f3 > 0.5)
        #expect(abs(Double(radar.pulses[0].presentation(at: 103)!.opacity) - radarExpected(f3).opacity) < 1e-6)
        // The model is untouched.
        #expect(radar.pulses[0].transform == CATransform3DIdentity && radar.pulses[0].opacity == 1)
    }

    @Test func radarPulsesNeverStop() {
        let context = SceneContext(clock: ManualClock(now: 100))
        let radar = makeRadar(context: context)
        context.advance(to: 10_000)
        for pulse in radar.pulses {
            #expect(pulse.animationKeys() == ["pulsing"])
        }
    }

    // MARK: Rain packet

    private struct Packet {
        let background: CALayer
        let packet: CALayer
    }

    /// The seed's packet at rain start (media time 5): fall A = (100, 0) → B = (200, 736) over 4 s,
    /// linear; spin 30° → 200° about (0, 0, −1) over 4.5 s, easeInEaseOut, fill forwards, kept.
    private func makePacket(_ context: SceneContext) -> Packet {
        let background = CALayer()
        background.bounds = CGRect(x: 0, y: 0, width: 414, height: 736)
        background.position = CGPoint(x: 207, y: 368)
        let packet = CALayer()
        packet.bounds = CGRect(x: 0, y: 0, width: 44, height: 62.5)
        packet.anchorPoint = CGPoint(x: 0, y: 0)
        packet.position = CGPoint(x: 0, y: -62.5)
        background.addSublayer(packet)
        context.run {
            let move = CAKeyframeAnimation(keyPath: "position")
            move.values = [CGPoint(x: 100, y: 0), CGPoint(x: 200, y: 736)]
            move.duration = 4
            move.repeatCount = 1
            move.timingFunction = CAMediaTimingFunction(name: .linear)
            packet.add(move, forKey: nil)
            let spin = CAKeyframeAnimation(keyPath: "transform")
            spin.values = [CATransform3DMakeRotation(degrees(30), 0, 0, -1), CATransform3DMakeRotation(degrees(200), 0, 0, -1)]
            spin.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            spin.duration = 4.5
            spin.fillMode = .forwards
            spin.isRemovedOnCompletion = false
            packet.add(spin, forKey: "spin")
        }
        return Packet(background: background, packet: packet)
    }

    @Test func rainPacketFallsSpinsAndHoldsOnlyTheSpin() {
        let context = SceneContext(clock: ManualClock(now: 5))
        let scene = makePacket(context)
        let packet = scene.packet

        // Half-way down at 5 + 2: lerp(A, B, 0.5) = (150, 368). Spin fraction easeInEaseOut(2/4.5):
        // the rotation slerps 30° → 200° the short way (170°), about −z.
        let mid = packet.presentation(at: 7)!
        #expect(close(mid.position, CGPoint(x: 150, y: 368)))
        let angle = 30 + 170 * easeInEaseOut(2 / 4.5)
        #expect(close(mid.transform, CATransform3DMakeRotation(degrees(angle), 0, 0, -1), 1e-6))
        // easeInEaseOut is symmetric: exactly half-way through the spin is 115°.
        #expect(close(packet.presentation(at: 7.25)!.transform, CATransform3DMakeRotation(degrees(115), 0, 0, -1), 1e-6))

        // After 4 s the fall is over (default fill): back at the model position, off screen; the
        // spin is still running.
        let fallen = packet.presentation(at: 9.1)!
        #expect(fallen.position == CGPoint(x: 0, y: -62.5))
        #expect(!close(fallen.transform, CATransform3DMakeRotation(degrees(200), 0, 0, -1), 1e-3))
        // After 4.5 s the spin holds its final rotation (fill forwards, not removed).
        let done = packet.presentation(at: 10)!
        #expect(done.position == CGPoint(x: 0, y: -62.5))
        #expect(close(done.transform, CATransform3DMakeRotation(degrees(200), 0, 0, -1), 1e-9))
        #expect(close(packet.presentation(at: 500)!.transform, CATransform3DMakeRotation(degrees(200), 0, 0, -1), 1e-9))
        #expect(packet.transform == CATransform3DIdentity)

        // The run loop removes the finished fall and keeps the spin.
        context.advance(to: 10)
        #expect(packet.animationKeys() == ["spin"])
        // End of the rain: remove all animations; the packet shows its model again.
        context.run { packet.removeAllAnimations() }
        #expect(packet.presentation(at: 11)!.transform == CATransform3DIdentity)
        withExtendedLifetime(scene.background) {}
    }

    @Test func rainPacketIsHitWhereItIsShown() {
        // At 5 + 2 the packet's anchor (its top-left corner) is at (150, 368) and it is turned by
        // the spin angle about that corner: its centre (22, 31.25) is rotated about −z by the angle,
        // i.e. about +z by −angle (row vectors: x' = x cos a − y sin a, y' = x sin a + y cos a).
        let context = SceneContext(clock: ManualClock(now: 5))
        let scene = makePacket(context)
        let a = -Double(degrees(30 + 170 * easeInEaseOut(2 / 4.5)))
        let centre = CGPoint(x: 150 + 22 * cos(a) - 31.25 * sin(a), y: 368 + 22 * sin(a) + 31.25 * cos(a))
        #expect(scene.background.hitTest(centre, at: 7) === scene.packet)
        // Where the centre would be without the spin (≈ 101° turned away) nothing of the packet is.
        #expect(scene.background.hitTest(CGPoint(x: 150 + 22, y: 368 + 31.25), at: 7) === scene.background)
        #expect(scene.background.hitTest(centre, at: 10) === scene.background)   // fallen: back above the screen
    }
}

import Foundation
import LayercastEngine
import LayercastJSON
@testable import LayercastSceneAPI
import LayercastSceneTesting
import LayercastWire
import Testing
@testable import LayercastScenes

// The cube loader (docs/scenes.md §2) run on a manual clock, checked against numbers worked out from
// seed 001 and docs/engine-model.md.

/// The loader under the harness (a room's clock, input path and frames), seed 7 unless told.
private func cubes(seed: UInt64 = 7) -> SceneHarness<CubesScene> {
    SceneHarness(CubesScene.self, seed: seed)
}

private extension SceneHarness where S == CubesScene {
    /// A drag step at (207, y) now.
    func drag(_ phase: DragPhase, y: CGFloat, by client: String = "c1") {
        drag(phase, at: CGPoint(x: 207, y: y), by: client)
    }

    /// A full pull (began at y 100, moved to 160 and 220 = 100 %) released at `t`.
    func pullAndRelease(at t: CFTimeInterval, by client: String = "c1") {
        run(to: t)
        drag(.began, y: 100, by: client)
        drag(.moved, y: 160, by: client)
        drag(.moved, y: 220, by: client)
        drag(.ended, y: 220, by: client)
    }

    /// The presented positions of the cube slots 0…3 at `t`.
    func positions(at t: CFTimeInterval) -> [CGPoint] {
        scene.cubes.map { presentation(of: $0, at: t)!.position }
    }

    /// A display list of the tree as it is now (after input since the last tick, too), at `t`.
    func displayList(at t: CFTimeInterval) -> DisplayList {
        stage.run { DisplayListBuilder().build(scene.layer, at: t) }
    }
}

// The seed's key points with u = 20, h = 10 (cubeUnit, which the original leaves open, is 20).
private let keyPoints: [CGPoint] = [
    CGPoint(x: -10, y: -20), CGPoint(x: 10, y: -20), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 0),
    CGPoint(x: 10, y: 20), CGPoint(x: -10, y: 20), CGPoint(x: -10, y: 0), CGPoint(x: -10, y: 0),
]

/// Key point `i` of cube `k`: cube 0's list shifted by 2k (the seed's cube1KeyPoints loop).
private func point(_ k: Int, _ i: Int) -> CGPoint { keyPoints[(i + 2 * k) % 8] }

private func lerp(_ a: CGPoint, _ b: CGPoint, _ u: Double) -> CGPoint {
    CGPoint(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u)
}

private func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: Double = 1e-6) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}

private func close(_ a: [CGPoint], _ b: [CGPoint], _ tolerance: Double = 1e-6) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { close($0, $1, tolerance) }
}

/// y of the seed's segment curve cubic-bezier(0.24, 0.52, 0.43, 0.8) at x, through the reference
/// `bezier` (TestSupport.swift).
private func seedCurve(_ x: Double) -> Double { bezier(0.24, 0.52, 0.43, 0.8, at: x) }

/// Where the loop that began at `begin` puts cube slot k at t (engine-model.md §2, §3.2): before
/// the begin the backwards fill shows key point 0; then cycle time c = (t − b) mod 2, segment
/// ⌊c / 0.25⌋, each segment eased by the seed's curve.
private func loopPosition(_ k: Int, at t: Double, begin: Double) -> CGPoint {
    guard t >= begin else { return point(k, 0) }
    let c = (t - begin).truncatingRemainder(dividingBy: 2)
    let segment = min(Int(c / 0.25), 7)
    let x = (c - 0.25 * Double(segment)) / 0.25
    return lerp(point(k, segment), point(k, segment + 1), seedCurve(x))
}

// MARK: Ray casting, independent of the display list

/// The face of the seed's cubes the eye sees at scene point `p`, worked out in the parent
/// transform layer's space: the loader maps (X, Y) there to (207 + 3X, 200 + 3Y); the parent's
/// transform T = Rz(−π/4)·Rx(π/4) (row vectors) has rows (√½, −½, −½), (√½, ½, ½), (0, −√½, √½),
/// so the local point under (X, Y) at depth s is X·(√½, √½, 0) + Y·(−½, ½, −√½) + s·d with
/// d = (−½, ½, √½) towards the eye. Each cube is the box centre ± 10; the face where the line
/// leaves the nearest box is what is seen. nil when no cube is hit or the point lies within 0.1 of
/// the seen face's edge (where quantised matrices may disagree).
private func seenFace(at p: CGPoint, cubes: [(name: String, centre: CGPoint)]) -> String? {
    let r = 0.5.squareRoot()
    let X = (p.x - 207) / 3, Y = (p.y - 200) / 3
    let origin = [X * r - Y * 0.5, X * r + Y * 0.5, -Y * r]
    let d = [-0.5, 0.5, r]
    var best: (s: Double, face: String)?
    for cube in cubes {
        let centre = [cube.centre.x, cube.centre.y, 0.0]
        var enter = -Double.infinity, exit = Double.infinity, exitAxis = 0
        for i in 0..<3 {
            let t1 = (centre[i] - 10 - origin[i]) / d[i], t2 = (centre[i] + 10 - origin[i]) / d[i]
            enter = max(enter, min(t1, t2))
            if max(t1, t2) < exit { exit = max(t1, t2); exitAxis = i }
        }
        guard enter <= exit else { continue }
        if best == nil || exit > best!.s {
            let q = (0..<3).map { origin[$0] + exit * d[$0] }
            let inside = (0..<3).allSatisfy { $0 == exitAxis || abs(q[$0] - centre[$0]) <= 10 - 0.1 }
            // d has x < 0, y > 0, z > 0: the line leaves through −x (left), +y (front) or +z (top).
            best = (exit, inside ? "\(cube.name)-\(["left", "front", "top"][exitAxis])" : "")
        }
    }
    guard let best, !best.face.isEmpty else { return nil }
    return best.face
}

/// The name of the last-drawn cube face item whose rect contains `p` (affine items only).
private func topFace(at p: CGPoint, in list: DisplayList) -> String? {
    for item in list.items.reversed() where item.name?.hasPrefix("cube-") == true {
        let m = item.matrix
        let det = m.a * m.d - m.b * m.c
        let x = (m.d * (p.x - m.tx) - m.c * (p.y - m.ty)) / det
        let y = (-m.b * (p.x - m.tx) + m.a * (p.y - m.ty)) / det
        if x >= 0, x <= item.width, y >= 0, y <= item.height { return item.name }
    }
    return nil
}

/// Checks that each cube shows exactly top, front and left, and that at every grid point the
/// face drawn last is the one the eye sees; returns how many grid points were compared.
private func checkFaces(_ harness: SceneHarness<CubesScene>, at t: CFTimeInterval) -> Int {
    let list = harness.displayList(at: t)
    let cubes = harness.scene.cubes.map { (name: $0.name!, centre: $0.presentation(at: t)!.position) }
    for cube in cubes {
        let faces = list.items.compactMap(\.name).filter { $0.hasPrefix(cube.name + "-") }
        #expect(Set(faces) == [cube.name + "-top", cube.name + "-front", cube.name + "-left"], "t = \(t)")
        #expect(list.items.allSatisfy { $0.name != cube.name + "-top" || $0.matrix.isAffine })
    }
    var compared = 0
    for i in 0...96 {
        for j in 0...96 {
            let p = CGPoint(x: 87 + 2.5 * Double(i), y: 80 + 2.5 * Double(j))
            guard let seen = seenFace(at: p, cubes: cubes) else { continue }
            compared += 1
            let drawn = topFace(at: p, in: list)
            if drawn != seen {
                Issue.record("t = \(t), point \(p): drawn \(drawn ?? "nothing"), seen \(seen)")
                return compared
            }
        }
    }
    return compared
}

@Suite("Cube loader scene")
struct CubesSceneTests {
    // MARK: Catalogue and tree

    @Test func infoAndCatalogue() {
        let info = CubesScene.info
        #expect(info.id == "cubes")
        #expect(info.size == CGSize(width: 414, height: 736))
        #expect(info.interactions == ["drag"])
        #expect(info.assets.isEmpty)
        #expect(SceneCatalog.scene(id: "cubes") == CubesScene.self)
    }

    @Test func treeFollowsTheSeed() {
        let harness = cubes()
        let scene = harness.scene
        // Parent transform: rows (√½, −½, −½), (√½, ½, ½), (0, −√½, √½) (rotate X by π/4, then
        // Z by −π/4 with CATransform3DRotate, row vectors; see `seenFace`).
        let r = 0.5.squareRoot()
        let t = scene.transformLayer.transform
        let expected: [CGFloat] = [r, -0.5, -0.5, 0, r, 0.5, 0.5, 0, 0, -r, r, 0, 0, 0, 0, 1]
        let actual = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
        #expect(zip(actual, expected).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(scene.cubes.map(\.name) == ["cube-0", "cube-1", "cube-2", "cube-3"])
        // Form 0: cube k on its key point 0, i.e. cube 0's point 2k.
        #expect(scene.cubes.map(\.position) == [keyPoints[0], keyPoints[2], keyPoints[4], keyPoints[6]])

        let top = CGColor(red: 72 / 255, green: 122 / 255, blue: 200 / 255, alpha: 1)
        let side = CGColor(red: 89 / 255, green: 117 / 255, blue: 251 / 255, alpha: 1)
        let left = CGColor(red: 60 / 255, green: 81 / 255, blue: 220 / 255, alpha: 1)
        for cube in scene.cubes {
            let faces = cube.sublayers ?? []
            #expect(faces.map { $0.name!.replacingOccurrences(of: cube.name! + "-", with: "") }
                    == ["top", "bottom", "left", "right", "front", "back"])   // the seed's addSublayer order
            #expect(faces.allSatisfy { !$0.isDoubleSided && $0.bounds == CGRect(x: 0, y: 0, width: 20, height: 20) && $0.position == .zero })
            #expect(faces.map(\.backgroundColor) == [top, top, left, left, side, side])
            // Where each face's centre and normal go (the seed's translate·rotate, rotation first):
            // top z = +10; bottom z = −10 turned over; front/back y = ±10; left/right x = ∓10.
            let centres = faces.map { f -> [CGFloat] in let p = f.transform.apply(x: 0, y: 0, z: 0); return [p.x, p.y, p.z] }
            let normals = faces.map { f -> [CGFloat] in
                let p = f.transform.apply(x: 0, y: 0, z: 1), o = f.transform.apply(x: 0, y: 0, z: 0)
                return [p.x - o.x, p.y - o.y, p.z - o.z]
            }
            let outward: [[CGFloat]] = [[0, 0, 1], [0, 0, -1], [-1, 0, 0], [1, 0, 0], [0, 1, 0], [0, -1, 0]]
            for (index, direction) in outward.enumerated() {
                #expect(zip(centres[index], direction).allSatisfy { abs($0 - 10 * $1) < 1e-9 })
                #expect(zip(normals[index], direction).allSatisfy { abs($0 - $1) < 1e-9 })
            }
            let shadowed = faces[0]
            #expect(shadowed.shadowPath == CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
            #expect(shadowed.shadowOffset == CGSize(width: -30, height: 30))
            #expect(shadowed.shadowColor == CGColor(gray: 0.5, alpha: 1))
            #expect(shadowed.shadowOpacity == 0.3)
            #expect(shadowed.shadowRadius == 0.2)
            #expect(faces.dropFirst().allSatisfy { $0.shadowOpacity == 0 })
        }
    }

    // MARK: Pulling

    @Test(arguments: [
        // (drag distance, percent): 120 pt = 100 %; 200 pt clamps to 1.
        (CGFloat(0), 0.0), (30, 0.25), (60, 0.5), (118.8, 0.99), (120, 1), (200, 1),
    ])
    func pullPlacesTheCubes(distance: CGFloat, percent: Double) {
        let harness = cubes()
        harness.run(to: 1)
        harness.drag(.began, y: 100)
        harness.drag(.moved, y: 100 + distance)
        #expect(abs(harness.scene.percent - percent) < 1e-12)
        // The seed's getPositionWithPercent: step = ⌊p / ½⌋, sub = (p − step/2)·2.
        let step = Int(percent / 0.5)
        let sub = (percent - Double(step) * 0.5) / 0.5
        let expected = (0..<4).map { lerp(point($0, step), point($0, step + 1), sub) }
        #expect(close(harness.scene.cubes.map(\.position), expected, 1e-9))
        // Implicit animations are off: the presentation shows the model at once and later.
        #expect(close(harness.positions(at: 1), expected, 1e-9))
        #expect(close(harness.positions(at: 1.05), expected, 1e-9))
        #expect(harness.scene.cubes.allSatisfy { $0.animationKeys() == nil })
    }

    @Test func pullPercentsAgainstTheSeedsKeyPoints() {
        // Worked out by hand: p = 0.25 is halfway through step 0, p = 0.99 is 98 % through step 1,
        // p = 1 is form 2.
        let harness = cubes()
        harness.drag(.began, y: 0)
        harness.drag(.moved, y: 30)
        #expect(close(harness.scene.cubes.map(\.position), [CGPoint(x: 0, y: -20), CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 20), CGPoint(x: -10, y: 0)]))
        harness.drag(.moved, y: 118.8)
        #expect(close(harness.scene.cubes.map(\.position), [CGPoint(x: 10, y: -0.4), CGPoint(x: 10, y: 19.6), CGPoint(x: -10, y: 0.4), CGPoint(x: -10, y: -19.6)]))
        harness.drag(.moved, y: 120)
        #expect(harness.scene.cubes.map(\.position) == [keyPoints[2], keyPoints[4], keyPoints[6], keyPoints[0]])
        #expect(harness.scene.status.string == "松开刷新")
    }

    @Test func onlyTheControllerPulls() {
        let harness = cubes()
        harness.drag(.began, y: 100, by: "a")
        #expect(harness.takeEvents() == [SceneEvent(name: "pull", data: ["phase": "began"], client: "a")])
        // b's drag is ignored while a controls: no event, no movement.
        harness.drag(.began, y: 0, by: "b")
        harness.drag(.moved, y: 60, by: "b")
        harness.drag(.ended, y: 120, by: "b")
        #expect(harness.takeEvents().isEmpty)
        #expect(harness.scene.controller == "a")
        #expect(harness.scene.cubes.map(\.position) == [keyPoints[0], keyPoints[2], keyPoints[4], keyPoints[6]])
        harness.drag(.moved, y: 130, by: "a")
        #expect(harness.scene.percent == 0.25)
    }

    @Test func releaseBelowTheThresholdRunsBack() {
        let harness = cubes()
        harness.run(to: 1)
        harness.drag(.began, y: 100)
        harness.drag(.ended, y: 190)   // 90 pt = 75 %
        #expect(harness.takeEvents() == [
            SceneEvent(name: "pull", data: ["phase": "began"], client: "c1"),
            SceneEvent(name: "pull", data: ["phase": "ended", "percent": 0.75, "refresh": false], client: "c1"),
        ])
        #expect(harness.scene.phase == .returning)
        // Back along the key points (75 % → key point 1 → key point 0) over 0.3 × 0.75 = 0.225 s:
        // at the start the cubes are where the pull left them, at the end on form 0.
        let pulled = (0..<4).map { lerp(point($0, 1), point($0, 2), 0.5) }
        #expect(close(harness.positions(at: 1), pulled))
        harness.run(to: 1.1)
        #expect(harness.scene.phase == .returning)
        harness.run(to: 1.225)
        #expect(harness.scene.phase == .idle)
        #expect(close(harness.positions(at: 1.225), (0..<4).map { point($0, 0) }))
        // A new pull can start; a cancelled one announces itself.
        harness.drag(.began, y: 0, by: "b")
        harness.drag(.cancelled, y: 30, by: "b")
        #expect(harness.takeEvents() == [
            SceneEvent(name: "pull", data: ["phase": "began"], client: "b"),
            SceneEvent(name: "pull", data: ["phase": "cancelled", "percent": 0.25], client: "b"),
        ])
    }

    @Test func aSilentControllerLosesControl() {
        let harness = cubes()
        harness.run(to: 1)
        harness.drag(.began, y: 0, by: "a")
        harness.drag(.moved, y: 60, by: "a")
        // 5 s after its last step.
        harness.run(to: 5.999)
        #expect(harness.scene.phase == .pulling)
        harness.run(to: 6)
        #expect(harness.scene.phase == .returning)
        #expect(harness.scene.controller == nil)
        #expect(harness.takeEvents().last == SceneEvent(name: "pull", data: ["phase": "cancelled", "percent": 0.5], client: "a"))
    }

    // MARK: Refreshing

    @Test func releaseStartsTheLoopWithoutMovingALayer() {
        let harness = cubes()
        harness.run(to: 1)
        harness.drag(.began, y: 100)
        harness.drag(.moved, y: 220)
        let before = harness.scene.cubes
        let pulled = harness.positions(at: 1)
        _ = harness.takeEvents()
        harness.drag(.ended, y: 220)
        #expect(harness.takeEvents() == [
            SceneEvent(name: "pull", data: ["phase": "ended", "percent": 1, "refresh": true], client: "c1"),
            SceneEvent(name: "refresh", data: ["phase": "loading"], client: "c1"),
        ])
        #expect(harness.scene.phase == .refreshing)
        // Form 2 holds the same places as form 0: the layer on point 2k becomes cube k (old cube 3
        // stood on point 2·3 + 2 = 8 ≡ 0), and every layer is presented where it was.
        #expect(harness.scene.cubes.map(\.name) == ["cube-3", "cube-0", "cube-1", "cube-2"])
        #expect(zip(harness.scene.cubes, [before[3], before[0], before[1], before[2]]).allSatisfy { $0 === $1 })
        #expect(before.map { $0.presentation(at: 1)!.position } == pulled)
        // The seed's loop: 9 values from key point 0, 8 Bézier segments, 2 s, fill both, forever, now + 0.1.
        for (k, cube) in harness.scene.cubes.enumerated() {
            let loop = cube.animation(forKey: "animation") as! CAKeyframeAnimation
            #expect(loop.values!.map { $0 as! CGPoint } == (0...8).map { point(k, $0) })
            #expect(loop.timingFunctions == Array(repeating: CAMediaTimingFunction(controlPoints: 0.24, 0.52, 0.43, 0.8), count: 8))
            #expect(loop.duration == 2)
            #expect(loop.calculationMode == .linear)
            #expect(!loop.isRemovedOnCompletion)
            #expect(loop.fillMode == .both)
            #expect(loop.repeatCount == .infinity)
            #expect(abs(loop.beginTime - 1.1) < 1e-12)
        }
    }

    @Test(arguments: [-0.05, 0.05, 0.35, 0.6, 0.85])
    func loopValues(offset: Double) {
        // Released at 1, so the loop begins at 1.1; the request returns at ≥ 2 = 1.1 + 0.9.
        let harness = cubes()
        harness.pullAndRelease(at: 1)
        let t = 1.1 + offset
        harness.run(to: t)
        #expect(harness.scene.phase == .refreshing)
        #expect(close(harness.positions(at: t), (0..<4).map { loopPosition($0, at: t, begin: 1.1) }, 1e-6))
    }

    @Test(arguments: [UInt64(1), 7, 42, 2024])
    func smoothStopAndCompletion(seed: UInt64) {
        let harness = cubes(seed: seed)
        harness.pullAndRelease(at: 1)
        let layers = harness.scene.cubes
        let stop = harness.scene.requestEndsAt!
        // The request takes 1–3 s.
        #expect(stop >= 2 && stop < 4)
        _ = harness.takeEvents()

        // Sample every 1/600 s; a frame is every 20 samples (1/30 s).
        let dt = 1.0 / 600
        var samples: [(t: Double, points: [CGPoint])] = []
        var finishing: (step: Int, sub: Double)?
        var finishedAt: Double?
        var refreshedAt: Double?
        var t = 1.0
        while t < stop + 1.5 {
            t += dt
            harness.run(to: t)
            samples.append((t, layers.map { $0.presentation(at: t)!.position }))
            for event in harness.takeEvents() {
                if event.name == "refresh", event.data["phase"] == "finishing" {
                    finishing = (Int(event.data["step"]!.doubleValue!), event.data["sub"]!.doubleValue!)
                    #expect(event.client == nil)
                }
                if event.name == "refreshed" {
                    refreshedAt = t
                    #expect(event == SceneEvent(name: "refreshed"))
                }
            }
            if finishedAt == nil, finishing != nil, harness.scene.cubes[0].animationKeys() == nil { finishedAt = t }
        }
        guard let finishing, let finishedAt, let refreshedAt else {
            Issue.record("the loader did not finish")
            return
        }
        // The stop reads the loop's step and its time fraction: c = (stop − 1.1) mod 2.
        let c = (stop - 1.1).truncatingRemainder(dividingBy: 2)
        #expect(finishing.step == Int(c / 0.25))
        #expect(abs(finishing.sub - (c / 0.25 - Double(Int(c / 0.25)))) < 1e-6)
        // The finishing animation runs to the next even step: 2 − sub segments from an even step,
        // 1 − sub from an odd one, 0.25 s each; it ends (cubes reset) within one sample of that,
        // and `refreshed` comes 0.3 s later.
        let end = stop + 0.25 * (Double(finishing.step % 2 == 0 ? 2 : 1) - finishing.sub)
        #expect(finishedAt >= end && finishedAt < end + dt + 1e-9)
        #expect(refreshedAt >= end + 0.3 && refreshedAt < end + 0.3 + dt + 1e-9)
        #expect(harness.scene.phase == .idle)
        // After the reset the cubes are on form 0 with no animation, each layer where it stopped.
        #expect(harness.scene.cubes.map(\.position) == [keyPoints[0], keyPoints[2], keyPoints[4], keyPoints[6]])
        #expect(harness.scene.cubes.allSatisfy { $0.animationKeys() == nil })

        // No frame jumps: moves between samples 1/30 s apart, while looping and during the stop.
        func largestMove(_ range: Range<Int>) -> CGFloat {
            range.map { i in
                zip(samples[i].points, samples[i + 20].points).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!
            }.max()!
        }
        let loopStart = samples.firstIndex { $0.t >= 1.1 }!
        let stopIndex = samples.firstIndex { $0.t >= stop }!
        let loopMove = largestMove(loopStart..<(stopIndex - 20))
        let stopMove = largestMove((stopIndex - 20)..<(samples.count - 20))
        #expect(loopMove > 0)
        #expect(stopMove <= loopMove + 1e-9, "stop \(stopMove) vs loop \(loopMove)")
        // And across the stop instant itself, one sample apart: the loop's motion continues.
        let across = zip(samples[stopIndex - 1].points, samples[stopIndex].points).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!
        #expect(across <= largestSampleStep(samples, loopStart..<(stopIndex - 1)) + 1e-9)
    }

    @Test func drawnFacesAreTheOnesTheEyeSees() {
        let harness = cubes(seed: 42)
        var compared = checkFaces(harness, at: 0)
        harness.run(to: 1)
        harness.drag(.began, y: 100)
        for distance in stride(from: CGFloat(10), through: 120, by: 10) {
            harness.drag(.moved, y: 100 + distance)
            compared += checkFaces(harness, at: 1)
        }
        harness.drag(.ended, y: 220)
        // One loop cycle, every 1/15 s, and on through the stop and the reset.
        let stop = harness.scene.requestEndsAt!
        var t = 1.0
        while t < stop + 1 {
            t += 1.0 / 15
            harness.run(to: t)
            compared += checkFaces(harness, at: t)
        }
        // 31 views with at least a few hundred cube points each.
        #expect(compared > 31 * 300)
    }

    @Test func deterministicPerSeed() {
        func run(_ seed: UInt64) -> (stop: Double, frames: [String]) {
            let harness = cubes(seed: seed)
            harness.pullAndRelease(at: 0.5)
            let stop = harness.scene.requestEndsAt!
            var frames: [String] = []
            for i in 1...150 {
                harness.run(to: 0.5 + Double(i) / 30)
                frames.append(harness.displayList.items.map { $0.json.serialized() }.joined(separator: "\n"))
            }
            return (stop, frames)
        }
        let a = run(7), b = run(7), c = run(8)
        #expect(a.stop == b.stop)
        #expect(a.frames == b.frames)
        #expect(a.stop != c.stop)
    }
}

/// The largest move of any cube between consecutive samples in `range`.
private func largestSampleStep(_ samples: [(t: Double, points: [CGPoint])], _ range: Range<Int>) -> CGFloat {
    range.map { i in
        zip(samples[i].points, samples[i + 1].points).map { hypot($0.x - $1.x, $0.y - $1.y) }.max()!
    }.max()!
}

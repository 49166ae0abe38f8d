import Foundation
import Testing
@testable import LayercastEngine

// MARK: - Helpers

/// Deterministic 64-bit LCG (Knuth's MMIX constants) so every run sees the same "random" cases.
private struct LCG {
    var state: UInt64

    mutating func next(_ range: ClosedRange<CGFloat>) -> CGFloat {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let unit = CGFloat(state >> 11) / CGFloat(UInt64(1) << 53)
        return range.lowerBound + (range.upperBound - range.lowerBound) * unit
    }
}

private extension CATransform3D {
    var entries: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }
}

/// Entry-wise closeness, relative to the entry's magnitude once it exceeds 1.
private func nearly(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: CGFloat = 1e-9) -> Bool {
    zip(a.entries, b.entries).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($0), abs($1)) }
}

private func nearly(_ a: CGPoint?, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tolerance * max(1, abs(b.x)) && abs(a.y - b.y) <= tolerance * max(1, abs(b.y))
}

/// A random product of rotations, scales (both signs), skews, translations and m34 perspective.
private func randomComposition(_ rng: inout LCG) -> CATransform3D {
    var t = CATransform3D.identity
    for _ in 0..<6 {
        let step: CATransform3D
        switch Int(rng.next(0...4.999)) {
        case 0:
            step = CATransform3DMakeRotation(
                rng.next(-.pi...(.pi)), rng.next(-1...1), rng.next(-1...1), rng.next(-1...1))
        case 1:
            let sign: CGFloat = rng.next(0...1) < 0.3 ? -1 : 1
            step = CATransform3DMakeScale(sign * rng.next(0.2...3), rng.next(0.2...3), rng.next(0.2...3))
        case 2:
            var skew = CATransform3D.identity
            (skew.m21, skew.m31, skew.m32, skew.m12) =
                (rng.next(-1...1), rng.next(-1...1), rng.next(-1...1), rng.next(-0.5...0.5))
            step = skew
        case 3:
            step = CATransform3DMakeTranslation(rng.next(-100...100), rng.next(-100...100), rng.next(-100...100))
        default:
            step = perspective(rng.next(400...2000))
        }
        t = t.concatenating(step)
    }
    return t
}

// MARK: - Construction

@Test func identityIsTheUnitMatrix() {
    // Apple: CATransform3DIdentity is [1 0 0 0; 0 1 0 0; 0 0 1 0; 0 0 0 1].
    let t = CATransform3DIdentity
    #expect(t.entries == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    #expect(t == CATransform3D() && t == .identity)
    #expect(CATransform3DIsIdentity(t) && t.isIdentity)
    #expect(!CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 1e-9)))
    #expect(CATransform3DEqualToTransform(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeScale(2, 2, 2)))
    #expect(!CATransform3DEqualToTransform(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeScale(2, 2, 3)))
}

@Test func makeTranslationAndScale() {
    // Row-vector convention: translation in m41 m42 m43, scale on the diagonal.
    let t = CATransform3DMakeTranslation(3, -4, 5)
    #expect(t.entries == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5, 1])
    let s = CATransform3DMakeScale(2, 3, -1)
    #expect(s.entries == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1])
    // [1 2 3 1]·T = (1+3, 2-4, 3+5, 1); [1 2 3 1]·S = (2, 6, -3, 1).
    #expect(t.apply(x: 1, y: 2, z: 3) == (x: 4, y: -2, z: 8, w: 1))
    #expect(s.apply(x: 1, y: 2, z: 3) == (x: 2, y: 6, z: -3, w: 1))
}

@Test func makeRotationAboutZ() {
    // Apple: for axis (0,0,1), m11 = cos, m12 = sin, m21 = -sin, m22 = cos.
    let a = degrees(30)
    let r = CATransform3DMakeRotation(a, 0, 0, 1)
    let expected = CATransform3D(
        m11: cos(a), m12: sin(a), m13: 0, m14: 0,
        m21: -sin(a), m22: cos(a), m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(nearly(r, expected, 1e-15))
    // Rotation by π/2 about z maps (1,0) to (0,1): Apple's doc + row-vector convention ([1 0 0 1]·M = row 1).
    let quarter = CATransform3DMakeRotation(.pi / 2, 0, 0, 5)  // axis length is irrelevant
    #expect(nearly(quarter.project(CGPoint(x: 1, y: 0)), CGPoint(x: 0, y: 1), 1e-15))
}

@Test func makeRotationAboutDiagonalPermutesAxes() {
    // Rodrigues: 120° about (1,1,1)/√3 sends x→y→z→x; the unnormalised axis (2,2,2) must be normalised.
    let r = CATransform3DMakeRotation(2 * .pi / 3, 2, 2, 2)
    let expected = CATransform3D(
        m11: 0, m12: 1, m13: 0, m14: 0,
        m21: 0, m22: 0, m23: 1, m24: 0,
        m31: 1, m32: 0, m33: 0, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
    #expect(nearly(r, expected, 1e-15))
    // Apple: a zero-length axis gives the identity.
    #expect(CATransform3DMakeRotation(1, 0, 0, 0) == .identity)
}

@Test func translateScaleRotatePrependTheirStep() {
    // Apple: CATransform3DTranslate(t, …) = Concat(MakeTranslation(…), t): translate first, then t.
    let scaled = CATransform3DMakeScale(2, 2, 2)
    let t = CATransform3DTranslate(scaled, 1, 0, 0)
    #expect(t == CATransform3DConcat(CATransform3DMakeTranslation(1, 0, 0), scaled))
    #expect(t.m41 == 2)  // (0 + 1)·2: the translation is scaled by the later step.
    let s = CATransform3DScale(CATransform3DMakeTranslation(10, 0, 0), 3, 3, 3)
    #expect(s.apply(x: 1, y: 0, z: 0) == (x: 13, y: 0, z: 0, w: 1))  // 1·3 + 10
    let r = CATransform3DRotate(CATransform3DMakeTranslation(10, 0, 0), .pi / 2, 0, 0, 1)
    #expect(nearly(r.project(CGPoint(x: 1, y: 0)), CGPoint(x: 10, y: 1), 1e-15))  // (1,0)→(0,1)→(10,1)
}

@Test func concatAppliesFirstArgumentFirst() {
    // Concat(a, b) = a·b: with row vectors a acts first. Origin: translate (10,0) then rotate 90° → (0,10);
    // rotate then translate → (10,0).
    let translate = CATransform3DMakeTranslation(10, 0, 0)
    let rotate = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    let origin = CGPoint(x: 0, y: 0)
    #expect(nearly(CATransform3DConcat(translate, rotate).project(origin), CGPoint(x: 0, y: 10), 1e-14))
    #expect(nearly(CATransform3DConcat(rotate, translate).project(origin), CGPoint(x: 10, y: 0), 1e-14))
    #expect(CATransform3DConcat(translate, rotate) != CATransform3DConcat(rotate, translate))
    #expect(translate.concatenating(rotate) == CATransform3DConcat(translate, rotate))
}

@Test func isAffine() {
    // Apple: affine iff only m11 m12 m21 m22 m41 m42 differ from the identity.
    #expect(CATransform3DIsAffine(.identity))
    #expect(CATransform3DIsAffine(CATransform3DConcat(
        CATransform3DMakeRotation(0.3, 0, 0, 1), CATransform3DMakeTranslation(4, 5, 0))))
    #expect(!CATransform3DIsAffine(CATransform3DMakeTranslation(0, 0, 1)))
    #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 1, 0, 0)))
    #expect(!CATransform3DIsAffine(perspective(500)))
}

// MARK: - Inversion

@Test func inverseTimesOriginalIsIdentity() {
    // A·A⁻¹ = A⁻¹·A = I by definition of the inverse.
    var rng = LCG(state: 1)
    for _ in 0..<50 {
        let t = randomComposition(&rng)
        let inverse = CATransform3DInvert(t)
        #expect(nearly(t.concatenating(inverse), .identity, 1e-9))
        #expect(nearly(inverse.concatenating(t), .identity, 1e-9))
        #expect(t.inverse == inverse)
    }
    // Hand-computed: the inverse of a translation by (1,2,3) is a translation by (-1,-2,-3).
    #expect(CATransform3DInvert(CATransform3DMakeTranslation(1, 2, 3)) == CATransform3DMakeTranslation(-1, -2, -3))
}

@Test func singularInverseReturnsInput() {
    // Apple: CATransform3DInvert returns its argument unchanged when it has no inverse.
    let flat = CATransform3DConcat(CATransform3DMakeScale(1, 0, 1), CATransform3DMakeTranslation(3, 4, 5))
    #expect(flat.inverse == nil)
    #expect(CATransform3DInvert(flat) == flat)
}

// MARK: - Projection

@Test func projectDividesByPerspectiveW() {
    // [100 50 0 1]·T(0,0,100) = [100 50 100 1]; ·(m34 = -1/500) gives w = 1 - 100/500 = 0.8,
    // so the point appears at (100, 50)/0.8 = (125, 62.5): the classic d/(d - z) enlargement.
    let t = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 100), perspective(500))
    #expect(nearly(t.project(CGPoint(x: 100, y: 50)), CGPoint(x: 125, y: 62.5), 1e-14))
    // z = 500 puts the point on the eye plane (w = 0); z = 600 behind it (w = -0.2): no projection.
    #expect(CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 500), perspective(500)).project(.zero) == nil)
    #expect(CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 600), perspective(500)).project(.zero) == nil)
}

@Test func unprojectInvertsProject() {
    // By construction project(unproject(q)) = q and unproject(project(p)) = p for visible points.
    var rng = LCG(state: 7)
    for _ in 0..<100 {
        let t = CATransform3DMakeRotation(rng.next(-1...1), rng.next(-1...1), rng.next(-1...1), rng.next(-1...1))
            .concatenating(CATransform3DMakeScale(rng.next(0.5...2), rng.next(0.5...2), 1))
            .concatenating(CATransform3DMakeTranslation(rng.next(-200...200), rng.next(-200...200), rng.next(-200...200)))
            .concatenating(perspective(rng.next(500...1500)))
        let p = CGPoint(x: rng.next(-100...100), y: rng.next(-100...100))
        guard let q = t.project(p) else { continue }
        #expect(nearly(t.unproject(q), p, 1e-9))
    }
}

@Test func unprojectRejectsPointsBehindTheEyeAndSingularMaps() {
    // Rotating π/3 about y then m34 = -1/500: source (x,0) lands at X = x·cos/(1 + x·sin/500), which
    // approaches 500·cot(π/3) ≈ 288.7 from below for visible points; X = 400 needs x ≈ -2074 with w ≈ -2.59.
    let t = CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 0, 1, 0), perspective(500))
    #expect(t.unproject(CGPoint(x: 400, y: 0)) == nil)
    #expect(nearly(t.unproject(CGPoint(x: 100, y: 0)), CGPoint(x: 100 / (0.5 - sin(.pi / 3) / 5), y: 0), 1e-9))
    // A plane squashed to a line (scale y = 0) has no unique preimage.
    #expect(CATransform3DMakeScale(1, 0, 1).unproject(CGPoint(x: 1, y: 0)) == nil)
}

@Test func facesViewer() {
    // Identity keeps (1,0)×(0,1) = +1: faces the viewer (Apple's convention on a y-down screen).
    #expect(CATransform3DIdentity.facesViewer())
    // π about y mirrors x: (-1,0)×(0,1) = -1, the back face is shown.
    #expect(!CATransform3DMakeRotation(.pi, 0, 1, 0).facesViewer())
    // π/3 about x foreshortens y by cos(π/3) = 0.5 but keeps orientation, also under perspective.
    #expect(CATransform3DMakeRotation(.pi / 3, 1, 0, 0).facesViewer())
    #expect(CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 1, 0, 0), perspective(500)).facesViewer())
    // 2π/3 about x: cos < 0 flips y, the back face is shown.
    #expect(!CATransform3DMakeRotation(2 * .pi / 3, 1, 0, 0).facesViewer())
}

// MARK: - Decomposition

@Test func decomposeKnownComposition() throws {
    // Scale (2,3,4), then 90° about z, then translate (5,6,7): CSS decomposition returns exactly these
    // parts; the quaternion of θ about (0,0,1) is (0, 0, sin(θ/2), cos(θ/2)).
    let t = CATransform3DMakeScale(2, 3, 4)
        .concatenating(CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        .concatenating(CATransform3DMakeTranslation(5, 6, 7))
    let d = try #require(DecomposedTransform3D(t))
    #expect(d.translation == .init(x: 5, y: 6, z: 7))
    #expect(abs(d.scale.x - 2) < 1e-15 && abs(d.scale.y - 3) < 1e-15 && abs(d.scale.z - 4) < 1e-15)
    #expect(abs(d.skew.xy) < 1e-15 && abs(d.skew.xz) < 1e-15 && abs(d.skew.yz) < 1e-15)
    #expect(d.perspective == .init(x: 0, y: 0, z: 0, w: 1))
    let h = sin(CGFloat.pi / 4)
    #expect(abs(d.quaternion.x) < 1e-15 && abs(d.quaternion.y) < 1e-15)
    #expect(abs(d.quaternion.z - h) < 1e-15 && abs(d.quaternion.w - h) < 1e-15)
    #expect(nearly(d.transform, t, 1e-14))
}

@Test func decomposedQuaternionMatchesAxisAngle() throws {
    // Quaternion of θ about unit axis n is (n·sin(θ/2), cos(θ/2)); the axis (1,2,3) is normalised by /√14.
    let d = try #require(DecomposedTransform3D(CATransform3DMakeRotation(1, 1, 2, 3)))
    let k = sin(CGFloat(0.5)) / CGFloat(14).squareRoot()
    let q = d.quaternion
    #expect(abs(q.x - k) < 1e-15 && abs(q.y - 2 * k) < 1e-15 && abs(q.z - 3 * k) < 1e-15)
    #expect(abs(q.w - cos(CGFloat(0.5))) < 1e-15)
}

@Test func decomposeReadsSkewAndPerspective() throws {
    // Skew m21 = 0.5 (x += 0.5·y) is CSS's XY skew; m34 = -1/500 alone is the perspective column.
    var skew = CATransform3D.identity
    skew.m21 = 0.5
    let d = try #require(DecomposedTransform3D(skew.concatenating(perspective(500))))
    #expect(abs(d.skew.xy - 0.5) < 1e-15 && d.skew.xz == 0 && d.skew.yz == 0)
    #expect(abs(d.perspective.z + 1.0 / 500) < 1e-18 && d.perspective.x == 0 && d.perspective.w == 1)
}

@Test func decomposeRecomposeRoundTrips() throws {
    // CSS normalises by m44, so recomposition reproduces t / m44 (t itself when m44 = 1).
    var rng = LCG(state: 42)
    for _ in 0..<500 {
        let t = randomComposition(&rng)
        let d = try #require(DecomposedTransform3D(t))
        #expect(nearly(d.transform, t.normalised, 1e-9))
    }
}

@Test func decomposeRecomposeHalfTurns() throws {
    // Half turns have quaternion w = 0, where CSS's sign-from-off-diagonals rule is ambiguous:
    // π about (1,-1,0) must not come back as π about (1,1,0).
    for axis: (CGFloat, CGFloat, CGFloat) in [(1, -1, 0), (1, 0, -1), (0, 1, -1), (1, -2, 3), (1, 0, 0)] {
        let t = CATransform3DMakeRotation(.pi, axis.0, axis.1, axis.2)
        #expect(nearly(try #require(DecomposedTransform3D(t)).transform, t, 1e-12))
    }
}

@Test func nonDecomposableMatrices() {
    // CSS: m44 = 0 or a singular upper 3×3 part cannot be decomposed.
    #expect(DecomposedTransform3D(CATransform3DMakeScale(0, 0, 0)) == nil)
    #expect(DecomposedTransform3D(CATransform3DMakeScale(1, 0, 1)) == nil)
    var zeroW = CATransform3D.identity
    zeroW.m44 = 0
    #expect(DecomposedTransform3D(zeroW) == nil)
}

// MARK: - Interpolation

@Test func interpolationHalvesTranslationAndScale() {
    // Linear components: halfway between (0,0,0) and (10,-20,30) is (5,-10,15); scale 1→3 is 2.
    let mid = CATransform3DInterpolate(.identity, CATransform3DMakeTranslation(10, -20, 30), 0.5)
    #expect(nearly(mid, CATransform3DMakeTranslation(5, -10, 15), 1e-15))
    let scale = CATransform3DInterpolate(CATransform3DMakeScale(1, 1, 1), CATransform3DMakeScale(3, 5, 1), 0.5)
    #expect(nearly(scale, CATransform3DMakeScale(2, 3, 1), 1e-15))
    // Perspective column is linear too: m34 0 → -1/500 is -1/1000 halfway.
    #expect(nearly(CATransform3DInterpolate(.identity, perspective(500), 0.5), perspective(1000), 1e-15))
}

@Test func interpolationEndpoints() {
    // Fractions 0 and 1 reproduce the (m44-normalised) endpoints.
    let from = CATransform3DMakeRotation(0.4, 1, 2, 3).concatenating(CATransform3DMakeTranslation(1, 2, 3))
    let to = CATransform3DMakeScale(2, -1, 1).concatenating(perspective(800))
    #expect(nearly(CATransform3DInterpolate(from, to, 0), from, 1e-12))
    #expect(nearly(CATransform3DInterpolate(from, to, 1), to, 1e-12))
}

@Test func rotationInterpolationTakesTheShortWay() {
    // 350° → 10° about z is a 20° turn through 0° (quaternions negated when their dot is negative).
    let from = CATransform3DMakeRotation(degrees(350), 0, 0, 1)
    let to = CATransform3DMakeRotation(degrees(10), 0, 0, 1)
    #expect(nearly(CATransform3DInterpolate(from, to, 0.5), .identity, 1e-12))
    #expect(nearly(CATransform3DInterpolate(from, to, 0.25), CATransform3DMakeRotation(degrees(355), 0, 0, 1), 1e-12))
    // 0° → 170°: slerp is uniform in angle, so halfway is 85°.
    let wide = CATransform3DMakeRotation(degrees(170), 0, 0, 1)
    #expect(nearly(CATransform3DInterpolate(.identity, wide, 0.5), CATransform3DMakeRotation(degrees(85), 0, 0, 1), 1e-12))
}

@Test func interpolationExtrapolatesOutsideUnitRange() {
    // Slerp by angle: 0° → 90° at 1.5 is 135°, at -0.5 is -45°; tiny angles fall back to a finite nlerp.
    let quarter = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    #expect(nearly(CATransform3DInterpolate(.identity, quarter, 1.5), CATransform3DMakeRotation(degrees(135), 0, 0, 1), 1e-12))
    #expect(nearly(CATransform3DInterpolate(.identity, quarter, -0.5), CATransform3DMakeRotation(degrees(-45), 0, 0, 1), 1e-12))
    let nearlySame = CATransform3DInterpolate(.identity, CATransform3DMakeRotation(1e-9, 0, 0, 1), 3)
    #expect(nearlySame.entries.allSatisfy { $0.isFinite })
    #expect(nearly(nearlySame, CATransform3DMakeRotation(3e-9, 0, 0, 1), 1e-12))
    // Translation extrapolates linearly: 0 → 10 at 2 is 20.
    #expect(nearly(CATransform3DInterpolate(.identity, CATransform3DMakeTranslation(10, 0, 0), 2),
                  CATransform3DMakeTranslation(20, 0, 0), 1e-15))
}

@Test func nonDecomposableInterpolationIsDiscrete() {
    // CSS: if either matrix cannot be decomposed, switch at 0.5 (from below, to at and above).
    let from = CATransform3DMakeScale(0, 0, 0)
    let to = CATransform3DMakeTranslation(10, 20, 30)
    #expect(CATransform3DInterpolate(from, to, 0.49) == from)
    #expect(CATransform3DInterpolate(from, to, 0.5) == to)
    #expect(CATransform3DInterpolate(to, from, 0.2) == to)
    #expect(CATransform3DInterpolate(to, from, 0.8) == from)
}

private extension CATransform3D {
    /// Every entry divided by m44: the matrix CSS decomposition actually describes.
    var normalised: CATransform3D {
        let k = 1 / m44
        return CATransform3D(
            m11: m11 * k, m12: m12 * k, m13: m13 * k, m14: m14 * k,
            m21: m21 * k, m22: m22 * k, m23: m23 * k, m24: m24 * k,
            m31: m31 * k, m32: m32 * k, m33: m33 * k, m34: m34 * k,
            m41: m41 * k, m42: m42 * k, m43: m43 * k, m44: 1)
    }
}

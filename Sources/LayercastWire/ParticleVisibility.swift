import Foundation
import LayercastEngine

/// When an emitter layer's particle is drawn inside the scene rect (protocol.md, "Particles"): its
/// scale and alpha quantise above 0 and, for an affine map to the scene, the disc around its centre
/// with the image's half-diagonal × scale (times how far the map stretches a radius) meets the rect.
/// Every condition is a polynomial of degree ≤ 2 in the particle's age, so the spans follow from
/// their roots; each piece between roots is tested at its middle.
struct ParticleVisibility: Equatable {
    let toScene: CATransform3D
    let scene: CGSize
    /// A projective map is not culled: the disc test holds for affine maps only.
    let affine: Bool
    /// The largest singular value of the map's 2 × 2 part.
    let stretch: Double

    init(toScene m: CATransform3D, scene: CGSize) {
        toScene = m
        self.scene = scene
        affine = m.m14 == 0 && m.m24 == 0 && m.m44 == 1
        let squares = m.m11 * m.m11 + m.m12 * m.m12 + m.m21 * m.m21 + m.m22 * m.m22
        let det = m.m11 * m.m22 - m.m12 * m.m21
        stretch = (0.5 * (squares + max(0, squares * squares - 4 * det * det).squareRoot())).squareRoot()
    }

    /// Whether the particle is drawn inside the rect at `age` (the culling rule itself).
    func isDrawn(_ birth: EmitterParticleBirth, atAge age: Double) -> Bool {
        let scale = max(0, birth.scale + birth.scaleSpeed * age)
        let alpha = min(max(birth.color.w + birth.colorSpeed.w * age, 0), 1)
        guard Quantize.linear(scale) > 0, Quantize.fraction(alpha) > 0 else { return false }
        guard affine else { return true }
        let p = birth.position(atAge: age)
        let m = toScene
        let x = m.m11 * p.x + m.m21 * p.y + m.m41, y = m.m12 * p.x + m.m22 * p.y + m.m42
        let r = radius(birth) * scale
        return x + r > 0 && y + r > 0 && x - r < scene.width && y - r < scene.height
    }

    /// The spans of layer time in which the particle is drawn inside the rect, in time order.
    func spans(of birth: EmitterParticleBirth) -> [Range<Double>] {
        let life = birth.lifetime
        guard life > 0 else { return [] }
        var cuts: [Double] = [0, life]
        func roots(_ a: Double, _ b: Double, _ c: Double) {
            for root in Self.roots(a, b, c) where root > 0 && root < life { cuts.append(root) }
        }
        roots(0, birth.scaleSpeed, birth.scale - 0.5e-4)
        roots(0, birth.colorSpeed.w, birth.color.w - 0.5e-3)
        if affine {
            let m = toScene, k = radius(birth)
            let (o, v, acc) = (birth.origin, birth.velocity, birth.acceleration)
            // Scene x and y as a·age² + b·age + c, and the radius as k·(s + ds·age).
            let x = (0.5 * (m.m11 * acc.x + m.m21 * acc.y), m.m11 * v.x + m.m21 * v.y, m.m11 * o.x + m.m21 * o.y + m.m41)
            let y = (0.5 * (m.m12 * acc.x + m.m22 * acc.y), m.m12 * v.x + m.m22 * v.y, m.m12 * o.x + m.m22 * o.y + m.m42)
            let (rb, rc) = (k * birth.scaleSpeed, k * birth.scale)
            roots(x.0, x.1 + rb, x.2 + rc)
            roots(y.0, y.1 + rb, y.2 + rc)
            roots(-x.0, rb - x.1, scene.width - x.2 + rc)
            roots(-y.0, rb - y.1, scene.height - y.2 + rc)
        }
        cuts.sort()
        var spans: [Range<Double>] = []
        for (low, high) in zip(cuts, cuts.dropFirst()) where high > low && isDrawn(birth, atAge: (low + high) / 2) {
            let span = birth.birthTime + low ..< birth.birthTime + high
            if let last = spans.last, last.upperBound >= span.lowerBound {
                spans[spans.count - 1] = last.lowerBound ..< span.upperBound
            } else {
                spans.append(span)
            }
        }
        return spans
    }

    /// The image's half-diagonal times the map's stretch: the drawn radius at scale 1.
    private func radius(_ birth: EmitterParticleBirth) -> Double {
        let w = Double(birth.contents.width), h = Double(birth.contents.height)
        return 0.5 * (w * w + h * h).squareRoot() * stretch
    }

    /// The real roots of a·x² + b·x + c (none when it is constant).
    static func roots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
        guard a != 0 else { return b != 0 ? [-c / b] : [] }
        let d = b * b - 4 * a * c
        guard d >= 0 else { return [] }
        // The stable form: no cancellation between b and √d.
        let q = -0.5 * (b + (b < 0 ? -1 : 1) * d.squareRoot())
        return q != 0 ? [q / a, c / q] : [0]
    }
}

import Foundation
import LayercastEngine

extension DisplayListBuilder {
    /// The particles of an emitter layer at its local time `time`, for its item (protocol.md,
    /// "Particles"): the newest `min(maxParticles, budget)`, then those whose drawn square
    /// (the image's half-diagonal × scale around the centre) lies wholly outside the scene rect,
    /// and those quantised to scale or alpha 0, are left out. `m` maps the layer's coordinates
    /// to the scene; positions are sent in the item's rect coordinates.
    static func particles(of layer: CAEmitterLayer, at time: CFTimeInterval, budget: inout Int, ids: inout ParticleIDMap,
                          bounds: CGRect, toScene m: CATransform3D, scene: CGSize) -> DrawParticles {
        guard budget > 0, !(layer.emitterCells ?? []).isEmpty else { return DrawParticles() }
        let all = layer.particles(at: time, limit: budget)
        budget -= all.count
        // A projective map is not culled: the disc test below holds for affine maps only.
        let affine = m.m14 == 0 && m.m24 == 0 && m.m44 == 1
        // The largest singular value of the 2 × 2 part: how far the map stretches a radius.
        let squares = m.m11 * m.m11 + m.m12 * m.m12 + m.m21 * m.m21 + m.m22 * m.m22
        let det = m.m11 * m.m22 - m.m12 * m.m21
        let stretch = (0.5 * (squares + max(0, squares * squares - 4 * det * det).squareRoot())).squareRoot()
        var shown: [EmitterParticle] = []
        shown.reserveCapacity(all.count)
        for particle in all {
            guard Quantize.linear(Double(particle.scale)) > 0, Quantize.fraction(Double(particle.color.alpha)) > 0 else { continue }
            if affine {
                let p = particle.position
                let x = m.m11 * p.x + m.m21 * p.y + m.m41, y = m.m12 * p.x + m.m22 * p.y + m.m42
                let r = 0.5 * (particle.contents.width * particle.contents.width
                               + particle.contents.height * particle.contents.height).squareRoot() * particle.scale * stretch
                guard x + r > 0, y + r > 0, x - r < scene.width, y - r < scene.height else { continue }
            }
            shown.append(particle)
        }
        var result = DrawParticles()
        var table: [DrawParticleImage: Int] = [:]
        let wireIDs = ids.ids(for: shown.map(\.id))
        result.particles.reserveCapacity(shown.count)
        for (particle, id) in zip(shown, wireIDs) {
            let entry = DrawParticleImage(image: particle.contents.name, tint: DrawColor(particle.color.copy(alpha: 1)))
            let index = table[entry] ?? result.images.count
            if index == result.images.count {
                table[entry] = index
                result.images.append(entry)
            }
            result.particles.append(DrawParticle(
                id: id, x: Quantize.points(Double(particle.position.x - bounds.minX)),
                y: Quantize.points(Double(particle.position.y - bounds.minY)),
                scale: Quantize.linear(Double(particle.scale)), rotation: Quantize.radians(Double(particle.rotation)),
                alpha: Quantize.fraction(Double(particle.color.alpha)), image: index))
        }
        return result
    }
}

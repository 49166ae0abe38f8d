import Foundation

/// Where on the layer's emitter shape a particle is born, from three uniforms in [0, 1)
/// (docs/engine-model.md §9.3).
enum EmitterShapeSampler {
    static func origin(_ p: EmitterLayerParameters, _ u: SIMD3<Double>) -> SIMD3<Double> {
        let c = SIMD3(Double(p.emitterPosition.x), Double(p.emitterPosition.y), Double(p.emitterZPosition))
        let half = SIMD3(Double(p.emitterSize.width), Double(p.emitterSize.height), Double(p.emitterDepth)) / 2
        let radius = Double(p.emitterSize.width)
        let mode = p.emitterMode
        switch p.emitterShape {
        case .line:
            let ends = [c - SIMD3(half.x, 0, 0), c + SIMD3(half.x, 0, 0)]
            return mode == .points ? vertex(ends, u.x) : ends[0] + (ends[1] - ends[0]) * u.x
        case .rectangle:
            let signs: [SIMD3<Double>] = [SIMD3(-1, -1, 0), SIMD3(1, -1, 0), SIMD3(1, 1, 0), SIMD3(-1, 1, 0)]
            let corners = signs.map { c + $0 * half }
            switch mode {
            case .points: return vertex(corners, u.x)
            case .outline: return alongEdges(corners.indices.map { (corners[$0], corners[($0 + 1) % 4]) }, u.x)
            default: return c + SIMD3(2 * u.x - 1, 2 * u.y - 1, 0) * half
            }
        case .cuboid:
            let corners = (0..<8).map { i in c + cornerSigns(i) * half }
            switch mode {
            case .points: return vertex(corners, u.x)
            case .outline:
                // The 12 edges join corners whose indices differ in one bit.
                var edges: [(SIMD3<Double>, SIMD3<Double>)] = []
                for i in 0..<8 {
                    for bit in [1, 2, 4] where i & bit == 0 { edges.append((corners[i], corners[i | bit])) }
                }
                return alongEdges(edges, u.x)
            case .surface: return onCuboidFaces(c, half, u)
            default: return c + (2 * u - 1) * half
            }
        case .circle:
            let angle = 2 * Double.pi * u.x
            switch mode {
            case .points: return c
            case .outline: return c + radius * SIMD3(cos(angle), sin(angle), 0)
            default: return c + radius * u.y.squareRoot() * SIMD3(cos(angle), sin(angle), 0)
            }
        case .sphere:
            let z = 2 * u.y - 1
            let ring = (1 - z * z).squareRoot()
            let angle = 2 * Double.pi * u.x
            let direction = SIMD3(cos(angle) * ring, sin(angle) * ring, z)
            switch mode {
            case .points: return c
            case .volume: return c + radius * Foundation.cbrt(u.z) * direction
            default: return c + radius * direction
            }
        default:
            return c
        }
    }

    /// Corner `i` of the unit box as signs: bit 0 → x, bit 1 → y, bit 2 → z.
    private static func cornerSigns(_ i: Int) -> SIMD3<Double> {
        SIMD3(i & 1 == 0 ? -1 : 1, i & 2 == 0 ? -1 : 1, i & 4 == 0 ? -1 : 1)
    }

    /// One of `vertices`, chosen evenly by `u`.
    private static func vertex(_ vertices: [SIMD3<Double>], _ u: Double) -> SIMD3<Double> {
        vertices[min(Int(u * Double(vertices.count)), vertices.count - 1)]
    }

    /// A point on a chain of edges, uniform by length; the first end when all edges are empty.
    private static func alongEdges(_ edges: [(SIMD3<Double>, SIMD3<Double>)], _ u: Double) -> SIMD3<Double> {
        let lengths = edges.map { length($0.1 - $0.0) }
        var remaining = u * lengths.reduce(0, +)
        for (edge, l) in zip(edges, lengths) where l > 0 {
            if remaining < l { return edge.0 + (edge.1 - edge.0) * (remaining / l) }
            remaining -= l
        }
        return edges[0].0
    }

    /// A point on the six faces of a box, uniform by area (inside a flat box with no area).
    private static func onCuboidFaces(_ c: SIMD3<Double>, _ half: SIMD3<Double>, _ u: SIMD3<Double>) -> SIMD3<Double> {
        // Faces normal to x (−, +), y (−, +) and z (−, +), weighted by area.
        let areas = [half.y * half.z, half.y * half.z, half.x * half.z, half.x * half.z, half.x * half.y, half.x * half.y]
        var pick = u.x * areas.reduce(0, +)
        var face = 0
        while face < 5 && pick >= areas[face] {
            pick -= areas[face]
            face += 1
        }
        var offset = SIMD3<Double>(repeating: 0)
        offset[face / 2] = face % 2 == 0 ? -1 : 1
        offset[(face / 2 + 1) % 3] = 2 * u.y - 1
        offset[(face / 2 + 2) % 3] = 2 * u.z - 1
        return c + offset * half
    }

    private static func length(_ v: SIMD3<Double>) -> Double {
        (v * v).sum().squareRoot()
    }
}

import Foundation

/// Counter-based randomness: every draw is a hash of (key, draw), the key a hash of the layer's
/// seed and the particle's id, so no particle needs the draws of earlier ones (docs/engine-model.md §9.2).
struct ParticleRandom: Sendable {
    /// The independent draws a particle makes.
    enum Draw: UInt64 {
        case lifetime = 1, velocity, coneCosine, coneTurn, spin, scale, red, green, blue, alpha, shapeA, shapeB, shapeC
    }

    let key: UInt64

    init(seed: UInt32, id: UInt64) {
        key = Self.mix(UInt64(seed), id)
    }

    /// A uniform value in [0, 1).
    func unit(_ draw: Draw) -> Double {
        Self.unit(Self.mix(key, draw.rawValue))
    }

    /// A uniform value in [mean − range/2, mean + range/2] (Apple's rule for mean-and-range properties).
    func spread(_ mean: Double, _ range: Double, _ draw: Draw) -> Double {
        mean + range * (unit(draw) - 0.5)
    }

    /// The top 53 bits of a hash as a double in [0, 1).
    static func unit(_ hash: UInt64) -> Double {
        Double(hash >> 11) * 0x1p-53
    }

    /// A hash of two words: SplitMix64's finaliser on `a` combined with the finalised `b`.
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        finalize(a ^ finalize(b &+ 0x9E37_79B9_7F4A_7C15))
    }

    private static func finalize(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

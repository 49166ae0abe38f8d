import LayercastJSON

/// The particles an emitter item draws (protocol.md, "Particles"): `p`, back to front (oldest
/// first), and the `pimg` table their `k` indexes, in order of first use along `p`.
public struct DrawParticles: Hashable, Sendable {
    public var images: [DrawParticleImage]
    public var particles: [DrawParticle]

    public init(images: [DrawParticleImage] = [], particles: [DrawParticle] = []) {
        self.images = images
        self.particles = particles
    }

    public var isEmpty: Bool { images.isEmpty && particles.isEmpty }

    /// Sets `pimg` and `p` of an item object; nothing when empty.
    func write(to object: JSONTree) {
        guard !isEmpty else { return }
        object.set("pimg", Self.tree(images))
        let array = JSONTree.array()
        for particle in particles { array.append(particle.tree) }
        object.set("p", array)
    }

    static func tree(_ images: [DrawParticleImage]) -> JSONTree {
        let table = JSONTree.array()
        for entry in images { table.append(entry.tree) }
        return table
    }

    static func images(_ field: FieldReader) throws(ProtocolError) -> [DrawParticleImage] {
        var images: [DrawParticleImage] = []
        for entry in try field.array() { images.append(try DrawParticleImage(entry)) }
        return images
    }

    /// Reads `pimg` and `p` of an item object (absent: none).
    init(item: FieldReader) throws(ProtocolError) {
        self.init()
        let table = item.member("pimg"), list = item.member("p")
        if !table.isAbsentOrNull { images = try Self.images(table) }
        if !list.isAbsentOrNull {
            for tuple in try list.array() { particles.append(try DrawParticle(tuple)) }
        }
    }
}

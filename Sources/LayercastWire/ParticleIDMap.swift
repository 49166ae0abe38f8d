/// Gives an emitter layer's particles the small ids the wire carries: a particle keeps its id
/// while it is sent in consecutive frames; ids count up from 1 and are never reused.
struct ParticleIDMap {
    private var ids: [UInt64: Int] = [:]
    private var next = 1

    /// The ids of `particles` (engine ids) for this frame; particles not listed lose theirs.
    mutating func ids(for particles: [UInt64]) -> [Int] {
        var kept: [UInt64: Int] = Dictionary(minimumCapacity: particles.count)
        let result = particles.map { particle in
            let id = ids[particle] ?? next
            if id == next { next += 1 }
            kept[particle] = id
            return id
        }
        ids = kept
        return result
    }
}

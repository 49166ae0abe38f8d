import Foundation

/// Keeps the newest `capacity` particles offered, ordered by (birth time, id); `cutoff` tells the
/// emitters which births can no longer make it, so they stop early (docs/engine-model.md §9.5).
struct ParticleCollector {
    let capacity: Int
    private var kept: [EmitterParticle] = []
    /// Particles born before this are older than `capacity` particles already kept.
    private(set) var cutoff = -CFTimeInterval.infinity

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        if self.capacity == 0 { cutoff = .infinity }
    }

    mutating func add(_ particle: EmitterParticle) {
        guard particle.birthTime >= cutoff else { return }
        kept.append(particle)
        if kept.count >= 2 * capacity { trim() }
    }

    /// The kept particles, oldest first.
    mutating func result() -> [EmitterParticle] {
        trim()
        return kept
    }

    private mutating func trim() {
        kept.sort { ($0.birthTime, $0.id) < ($1.birthTime, $1.id) }
        guard kept.count >= capacity, capacity > 0 else { return }
        kept.removeFirst(kept.count - capacity)
        cutoff = kept[0].birthTime
    }
}

import Foundation
import LayercastEngine

/// What the builder keeps of one emitter item between frames (protocol.md, "Particles"): the
/// records it holds, as the client holds them, and the particles born but not yet drawn on screen,
/// so a frame costs only the new births and what newly shows. A change that can rewrite the past
/// (time going backwards, a new clock, cells, bounds origin or tint) starts it afresh.
final class EmitterItemState {
    /// What, when it changes, starts the state afresh.
    struct Basis: Equatable {
        var revision: Int
        var clock: DrawParticleClock
        var boundsOrigin: CGPoint
        var tint: SIMD3<Double>
    }

    /// A particle being followed: its birth, where it is drawn on screen, and its record once sent.
    private struct Followed {
        var birth: EmitterParticleBirth
        var spans: [Range<Double>]
        /// The id and kind of its record, once sent.
        var sent: (id: Int, kind: Int)?
    }

    private(set) var basis: Basis
    /// The last build that visited the item, and the layer time it was built at.
    var build: Int
    private(set) var localTime = -CFTimeInterval.infinity
    private var visibility: ParticleVisibility?
    /// Every particle followed, by engine id; `records` are those sent, in drawing order.
    private var followed: [UInt64: Followed] = [:]
    private(set) var records: [DrawParticleBirth] = []
    private var engineIDs: [Int: UInt64] = [:]
    /// Kinds by what they fix, their use counts, and the next unused ids (never reused in the item).
    private var kindIDs: [DrawParticleKind: Int] = [:]
    private var kindUses: [Int: Int] = [:]
    private var kindTable: [Int: DrawParticleKind] = [:]
    private var nextKind = 1
    private var nextID = 1

    init(basis: Basis, build: Int) {
        self.basis = basis
        self.build = build
    }

    /// Starts afresh under `basis`: nothing held, nothing followed (ids and kinds go on counting).
    func restart(_ basis: Basis) {
        self.basis = basis
        localTime = -.infinity
        followed = [:]
        records = []
        engineIDs = [:]
        kindUses = [:]
    }

    /// The item's particles at layer time `time` (frame time `t`): the records held before, less
    /// those dead or gone from the screen for good, plus the particles drawn on screen for the first
    /// time, the oldest evicted past `capacity`.
    func advance(_ layer: CAEmitterLayer, to time: CFTimeInterval, frameTime t: Double, visibility: ParticleVisibility,
                 capacity: Int) -> DrawBirths {
        // A new map to the scene changes where every particle shows: follow all that live.
        let start = visibility == self.visibility ? localTime : -.infinity
        if visibility != self.visibility {
            self.visibility = visibility
            for (key, value) in followed { followed[key]!.spans = visibility.spans(of: value.birth) }
        }
        for birth in layer.particleBirths(after: start, through: time) where followed[birth.id] == nil {
            let spans = visibility.spans(of: birth)
            if spans.contains(where: { $0.upperBound > time }) { followed[birth.id] = Followed(birth: birth, spans: spans) }
        }
        localTime = time
        var showing: [EmitterParticleBirth] = []
        var ended: [UInt64] = []
        for (key, value) in followed {
            // Gone for good: dead, or never on screen again.
            guard let last = value.spans.last, last.upperBound > time else {
                ended.append(key)
                continue
            }
            if value.sent == nil, value.spans.contains(where: { $0.contains(time) }) { showing.append(value.birth) }
        }
        // Ids in drawing order, so (b, id) orders them as the engine does.
        showing.sort { ($0.birthTime, $0.id) < ($1.birthTime, $1.id) }
        let shown = showing.map { birth in
            let record = record(of: birth)
            followed[birth.id]!.sent = (record.id, record.kind)
            engineIDs[record.id] = birth.id
            return record
        }
        var dropped = false
        for key in ended where drop(key) { dropped = true }
        if dropped { records.removeAll { engineIDs[$0.id] == nil } }
        if !shown.isEmpty {
            if let last = records.last, DrawParticleBirth.drawsBefore(shown[0], last) {
                records = (records + shown).sorted(by: DrawParticleBirth.drawsBefore)
            } else {
                records += shown
            }
        }
        var births = DrawBirths(clock: basis.clock, records: records)
        births.prune(at: t)
        if births.records.count > max(0, capacity) { births.records.removeFirst(births.records.count - max(0, capacity)) }
        if births.records.count != records.count {
            let kept = Set(births.records.lazy.map(\.id))
            for record in records where !kept.contains(record.id) { drop(engineIDs[record.id]!) }
            records = births.records
        }
        births.kinds = kindUses.keys.sorted().map { kindTable[$0]! }
        return births
    }

    /// Stops following a particle, forgetting its record (the caller drops it from `records`);
    /// whether it had one.
    @discardableResult
    private func drop(_ key: UInt64) -> Bool {
        guard let sent = followed.removeValue(forKey: key)?.sent else { return false }
        engineIDs[sent.id] = nil
        kindUses[sent.kind, default: 1] -= 1
        if kindUses[sent.kind] == 0 { kindUses[sent.kind] = nil }
        return true
    }

    /// A new record of `birth`, quantised, in the item's rect coordinates, tinted by the copy's colour.
    private func record(of birth: EmitterParticleBirth) -> DrawParticleBirth {
        let tint = basis.tint
        let speeds = SIMD3(birth.colorSpeed.x, birth.colorSpeed.y, birth.colorSpeed.z) * tint
        let fixed = DrawParticleKind(
            id: 0, image: birth.contents.name, ax: Quantize.points(birth.acceleration.x), ay: Quantize.points(birth.acceleration.y),
            scaleSpeed: Quantize.linear(birth.scaleSpeed), alphaSpeed: Quantize.fraction(birth.colorSpeed.w),
            redSpeed: Quantize.fraction(speeds.x), greenSpeed: Quantize.fraction(speeds.y), blueSpeed: Quantize.fraction(speeds.z))
        let kind: Int
        if let known = kindIDs[fixed] {
            kind = known
        } else {
            kind = nextKind
            nextKind += 1
            kindIDs[fixed] = kind
            var entry = fixed
            entry.id = kind
            kindTable[kind] = entry
        }
        kindUses[kind, default: 0] += 1
        let id = nextID
        nextID += 1
        let colour = SIMD3(birth.color.x, birth.color.y, birth.color.z) * tint
        return DrawParticleBirth(
            id: id, kind: kind, birth: Quantize.birth(birth.birthTime), lifetime: Quantize.fraction(birth.lifetime),
            x: Quantize.points(birth.origin.x - basis.boundsOrigin.x), y: Quantize.points(birth.origin.y - basis.boundsOrigin.y),
            vx: Quantize.points(birth.velocity.x), vy: Quantize.points(birth.velocity.y), scale: Quantize.linear(birth.scale),
            spin: Quantize.radians(birth.spin), alpha: Quantize.fraction(birth.color.w),
            color: DrawColor(CGColor(red: colour.x, green: colour.y, blue: colour.z, alpha: 1)))
    }
}

import LayercastJSON
import LayercastSceneAPI

/// An emitter item's particles (protocol.md, "Particles"): the kinds its records use (`pk`), its
/// clock (`pt`) and every record the client holds (`pb`), in drawing order (by birth, then id).
public struct DrawBirths: Hashable, Sendable {
    /// By kid, ascending.
    public var kinds: [DrawParticleKind]
    public var clock: DrawParticleClock
    public var records: [DrawParticleBirth]

    public init(kinds: [DrawParticleKind] = [], clock: DrawParticleClock = .identity, records: [DrawParticleBirth] = []) {
        self.kinds = kinds
        self.clock = clock
        self.records = records
    }

    /// No records and no kinds: nothing to write (the clock alone draws nothing).
    public var isEmpty: Bool { records.isEmpty && kinds.isEmpty }

    /// Drops the records dead at frame time `t` (natural death, which needs no bytes).
    public mutating func prune(at t: Double) {
        guard records.contains(where: { $0.isDead(at: t, clock: clock) }) else { return }
        records.removeAll { $0.isDead(at: t, clock: clock) }
    }

    /// The drawn particles at display time `d`, in drawing order.
    public func states(at d: Double) -> [DrawParticleState] {
        var byID: [Int: DrawParticleKind] = [:]
        for kind in kinds { byID[kind.id] = kind }
        return records.compactMap { record in byID[record.kind].flatMap { record.state(at: d, clock: clock, kind: $0) } }
    }

    /// Sets `pk`, `pt` and `pb` of an item object, each only when not at its default.
    func write(to object: JSONTree) {
        if !kinds.isEmpty { object.set("pk", Self.tree(kinds)) }
        if clock != .identity { object.set("pt", clock.tree) }
        if !records.isEmpty { object.set("pb", Self.tree(records)) }
    }

    static func tree(_ kinds: [DrawParticleKind]) -> JSONTree {
        let table = JSONTree.array()
        for kind in kinds { table.append(kind.tree) }
        return table
    }

    static func tree(_ records: [DrawParticleBirth]) -> JSONTree {
        let array = JSONTree.array()
        for record in records { array.append(record.tree) }
        return array
    }

    static func kinds(_ field: FieldReader) throws(ProtocolError) -> [DrawParticleKind] {
        var kinds: [DrawParticleKind] = []
        for entry in field.isAbsentOrNull ? [] : try field.array() { kinds.append(try DrawParticleKind(entry)) }
        return kinds
    }

    static func records(_ field: FieldReader) throws(ProtocolError) -> [DrawParticleBirth] {
        var records: [DrawParticleBirth] = []
        for tuple in field.isAbsentOrNull ? [] : try field.array() { records.append(try DrawParticleBirth(tuple)) }
        return records
    }

    static func integers(_ field: FieldReader) throws(ProtocolError) -> [Int] {
        var ids: [Int] = []
        for id in field.isAbsentOrNull ? [] : try field.array() { ids.append(try id.integer()) }
        return ids
    }

    /// Reads `pk`, `pt` and `pb` of an item object (absent: none, `[1, 0]`, none).
    init(item: FieldReader) throws(ProtocolError) {
        self.init(kinds: try Self.kinds(item.member("pk")), records: try Self.records(item.member("pb")))
        if let clock = item.member("pt").present { self.clock = try DrawParticleClock(clock) }
    }
}

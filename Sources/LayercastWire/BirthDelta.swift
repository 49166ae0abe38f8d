import LayercastJSON
import LayercastSceneAPI

/// What turns an emitter item's particles into the next frame's, written in its `set` entry
/// (protocol.md, "Particles"): the whole new `pk` when it changed, `pt` when it changed (null for
/// `[1, 0]`), records dropped before their natural death (`pbr`) and records appended (`pba`).
public struct BirthDelta: Hashable, Sendable {
    public var kinds: [DrawParticleKind]?
    public var clock: DrawParticleClock?
    public var remove: [Int]
    public var append: [DrawParticleBirth]

    public init(kinds: [DrawParticleKind]? = nil, clock: DrawParticleClock? = nil, remove: [Int] = [],
                append: [DrawParticleBirth] = []) {
        (self.kinds, self.clock, self.remove, self.append) = (kinds, clock, remove, append)
    }

    public var isEmpty: Bool { kinds == nil && clock == nil && remove.isEmpty && append.isEmpty }

    /// The delta from `old` to `new`, the item's particles at frame time `t` (records in drawing
    /// order, unique ids): `from(old, to: new, at: t).applied(to: old, at: t) == new`. A record of
    /// `old` missing from `new` is dropped by `pbr` unless it is dead at `t` under both clocks.
    public static func from(_ old: DrawBirths, to new: DrawBirths, at t: Double) -> BirthDelta {
        var delta = BirthDelta(kinds: old.kinds == new.kinds ? nil : new.kinds, clock: old.clock == new.clock ? nil : new.clock)
        guard old.records != new.records else { return delta }
        // Both lists are in drawing order: walk them together.
        var i = 0, j = 0
        while i < old.records.count || j < new.records.count {
            if j == new.records.count || i < old.records.count && DrawParticleBirth.drawsBefore(old.records[i], new.records[j]) {
                let gone = old.records[i]
                if !(gone.isDead(at: t, clock: old.clock) && gone.isDead(at: t, clock: new.clock)) { delta.remove.append(gone.id) }
                i += 1
            } else if i == old.records.count || new.records[j].id != old.records[i].id {
                delta.append.append(new.records[j])
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        return delta
    }

    /// The particles after this delta at frame time `t`: the new table and clock, then natural
    /// deaths at `t` dropped, then `pbr`, then `pba` inserted in drawing order (ids already held are skipped).
    public func applied(to old: DrawBirths, at t: Double) -> DrawBirths {
        var births = old
        if let kinds { births.kinds = kinds }
        if let clock { births.clock = clock }
        births.prune(at: t)
        if !remove.isEmpty {
            let removed = Set(remove)
            births.records.removeAll { removed.contains($0.id) }
        }
        guard !append.isEmpty else { return births }
        let held = Set(births.records.lazy.map(\.id))
        let added = append.filter { !held.contains($0.id) }
        if let last = births.records.last, let first = added.first, DrawParticleBirth.drawsBefore(first, last) {
            births.records = (births.records + added).sorted(by: DrawParticleBirth.drawsBefore)
        } else {
            births.records += added.sorted(by: DrawParticleBirth.drawsBefore)
        }
        return births
    }

    /// Sets `pk`, `pt`, `pbr` and `pba` of a `set` entry, each only when it has something to say.
    func write(to object: JSONTree) {
        if let kinds { object.set("pk", DrawBirths.tree(kinds)) }
        if let clock {
            if clock == .identity { object.setNull("pt") } else { object.set("pt", clock.tree) }
        }
        if !remove.isEmpty {
            let array = JSONTree.array()
            for id in remove { array.append(Double(id)) }
            object.set("pbr", array)
        }
        if !append.isEmpty { object.set("pba", DrawBirths.tree(append)) }
    }

    /// Whether a `set` entry carries particle changes.
    static func isPresent(in entry: FieldReader) -> Bool {
        ["pk", "pt", "pbr", "pba"].contains { !entry.member($0).isAbsent }
    }

    /// Reads the particle keys of a `set` entry (`pk` null or `[]`: an empty table).
    init(entry: FieldReader) throws(ProtocolError) {
        self.init()
        let table = entry.member("pk")
        if !table.isAbsent { kinds = try DrawBirths.kinds(table) }
        let clock = entry.member("pt")
        if !clock.isAbsent { self.clock = clock.isAbsentOrNull ? .identity : try DrawParticleClock(clock) }
        for id in try DrawBirths.integers(entry.member("pbr")) { remove.append(id) }
        append = try DrawBirths.records(entry.member("pba"))
    }
}

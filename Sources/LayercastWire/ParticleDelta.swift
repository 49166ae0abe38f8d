import LayercastJSON

/// What turns an emitter item's particles into the next frame's, written in its `set` entry
/// (protocol.md, "Particles"): replace the table by `pimg` when given, delete `pr`, update `pc`
/// (`[id, x, y, r]` moves, or whole tuples), append `pa`, then reorder to `po` when given.
public struct ParticleDelta: Hashable, Sendable {
    public var images: [DrawParticleImage]?
    public var remove: [Int]
    public var change: [DrawParticle]
    /// For each `change`, whether it is a move: only its x, y and rotation apply (written
    /// `[id, x, y, r]`; its other numbers are left at 0, 1, 0).
    public var moved: [Bool]
    public var add: [DrawParticle]
    /// Every particle id of the new list back to front; nil when the steps above give that order.
    public var order: [Int]?

    public init(images: [DrawParticleImage]? = nil, remove: [Int] = [], change: [DrawParticle] = [],
                moved: [Bool] = [], add: [DrawParticle] = [], order: [Int]? = nil) {
        (self.images, self.remove, self.change, self.moved, self.add, self.order) = (images, remove, change, moved, add, order)
    }

    public var isEmpty: Bool { images == nil && remove.isEmpty && change.isEmpty && add.isEmpty && order == nil }

    /// The delta from `old` to `new` (unique ids in each): `from(old, to: new).applied(to: old) == new`.
    public static func from(_ old: DrawParticles, to new: DrawParticles) -> ParticleDelta {
        var delta = ParticleDelta(images: old.images == new.images ? nil : new.images)
        guard old.particles != new.particles else { return delta }
        var oldIndex: [Int: Int] = Dictionary(minimumCapacity: old.particles.count)
        for (position, particle) in old.particles.enumerated() { oldIndex[particle.id] = position }
        var newIDs: Set<Int> = Set(minimumCapacity: new.particles.count)
        for particle in new.particles { newIDs.insert(particle.id) }

        for particle in old.particles where !newIDs.contains(particle.id) { delta.remove.append(particle.id) }
        for particle in new.particles {
            guard let position = oldIndex[particle.id] else {
                delta.add.append(particle)
                continue
            }
            let before = old.particles[position]
            guard particle != before else { continue }
            let isMove = particle.onlyMoved(from: before)
            delta.change.append(isMove ? Self.move(particle) : particle)
            delta.moved.append(isMove)
        }
        delta.order = IDListDelta.order(old: old.particles.lazy.map(\.id), new: new.particles.lazy.map(\.id),
                                        newIDs: newIDs, added: delta.add.map(\.id))
        return delta
    }

    /// The particles after this delta; entries naming ids that are not in the list are skipped.
    public func applied(to old: DrawParticles) -> DrawParticles {
        var particles = old.particles
        if !remove.isEmpty {
            let removed = Set(remove)
            particles.removeAll { removed.contains($0.id) }
        }
        if !change.isEmpty {
            var index: [Int: Int] = Dictionary(minimumCapacity: particles.count)
            for (position, particle) in particles.enumerated() { index[particle.id] = position }
            for (particle, isMove) in zip(change, moved) {
                guard let position = index[particle.id] else { continue }
                if isMove {
                    particles[position].x = particle.x
                    particles[position].y = particle.y
                    particles[position].rotation = particle.rotation
                } else {
                    particles[position] = particle
                }
            }
        }
        particles += add
        if let order { particles = IDListDelta.reordered(particles, by: order, id: \.id) }
        return DrawParticles(images: images ?? old.images, particles: particles)
    }

    /// Sets `pimg`, `pr`, `pc`, `pa`, `po` of a `set` entry, each only when it has something to say.
    /// `pc` moves are written `[id, x, y, r]` when scale, alpha and image are unchanged.
    func write(to object: JSONTree) {
        if let images { object.set("pimg", DrawParticles.tree(images)) }
        if !remove.isEmpty { object.set("pr", Self.ids(remove)) }
        if !change.isEmpty {
            let array = JSONTree.array()
            for (particle, moved) in zip(change, moved) { array.append(moved ? particle.moveTree : particle.tree) }
            object.set("pc", array)
        }
        if !add.isEmpty {
            let array = JSONTree.array()
            for particle in add { array.append(particle.tree) }
            object.set("pa", array)
        }
        if let order { object.set("po", Self.ids(order)) }
    }

    private static func ids(_ ids: [Int]) -> JSONTree {
        let array = JSONTree.array()
        for id in ids { array.append(Double(id)) }
        return array
    }

    /// Whether a `set` entry carries particle changes.
    static func isPresent(in entry: FieldReader) -> Bool {
        ["pimg", "pr", "pc", "pa", "po"].contains { !entry.member($0).isAbsent }
    }

    /// The move of `particle`: its id, x, y and rotation.
    static func move(_ particle: DrawParticle) -> DrawParticle {
        DrawParticle(id: particle.id, x: particle.x, y: particle.y, scale: 0, rotation: particle.rotation)
    }

    /// Reads the particle keys of a `set` entry.
    init(entry: FieldReader) throws(ProtocolError) {
        self.init()
        let table = entry.member("pimg")
        if !table.isAbsent { images = table.isAbsentOrNull ? [] : try DrawParticles.images(table) }
        remove = try Self.integers(entry.member("pr"))
        let changes = entry.member("pc")
        for tuple in changes.isAbsentOrNull ? [] : try changes.array() {
            let numbers = try tuple.array("[id, x, y, r] or a whole particle")
            guard numbers.count == 4 else {
                change.append(try DrawParticle(tuple))
                moved.append(false)
                continue
            }
            change.append(DrawParticle(id: try numbers[0].integer(), x: try numbers[1].number(), y: try numbers[2].number(),
                                       scale: 0, rotation: try numbers[3].number()))
            moved.append(true)
        }
        let added = entry.member("pa")
        for tuple in added.isAbsentOrNull ? [] : try added.array() { add.append(try DrawParticle(tuple)) }
        let order = entry.member("po")
        if !order.isAbsentOrNull { self.order = try Self.integers(order) }
    }

    private static func integers(_ field: FieldReader) throws(ProtocolError) -> [Int] {
        var ids: [Int] = []
        for id in field.isAbsentOrNull ? [] : try field.array() { ids.append(try id.integer()) }
        return ids
    }
}

import Foundation

/// The particles of an emitter layer at one layer time, as a pure function of its cells' and its
/// own parameter histories: nothing carries over from one evaluation to the next
/// (docs/engine-model.md §9).
struct ParticleSimulator {
    /// A cell prepared for evaluation: its parameter periods in layer time and how far its
    /// particles' consequences reach.
    struct Node {
        var path: [Int]
        /// The names through which key paths reach it (§9.7); nil when none does.
        var names: [String]?
        var periods: [EmitterCellPeriod]
        var beginTime: CFTimeInterval
        var duration: CFTimeInterval
        var children: [Node]
        /// The longest a particle of this cell can live.
        var maxLifetime: Double
        /// The longest after its birth that a particle or one of its descendants can be alive.
        var reach: Double
        /// The longest after its birth that one of its descendants can be born.
        var spawnReach: Double

        /// The end of emission for a window opening at `begin`: `duration` when finite and > 0.
        func emissionEnd(from begin: CFTimeInterval) -> CFTimeInterval {
            duration > 0 && duration.isFinite ? begin + duration : .infinity
        }
    }

    /// The Weyl step that spreads sub-cell phases evenly over consecutive parents: 1/φ.
    private static let phaseStep = 0.618_033_988_749_894_9

    let roots: [Node]
    /// Layer time from which sub-cells emit (§9.2).
    let subcellStart: CFTimeInterval
    let capacity: Int
    /// The emitter animations (§9.7).
    let presenter: EmitterPresenter
    /// For each of the layer's cells, where its emission resumes after forgotten changes (§9.1).
    let anchors: [EmissionAnchor?]

    /// Prepares `cells` with `layer`'s history and the emitter `animations` for an evaluation at layer
    /// time `end` (or earlier), converting recorded media times with `layerTime`; a cell found again
    /// inside its own sub-cells is skipped there.
    init(cells: [CAEmitterCell], layer: ParameterHistory<EmitterLayerParameters>, animations: [EmitterAnimationTrack],
         anchors: [EmissionAnchor?], subcellStart: CFTimeInterval, capacity: Int, until end: CFTimeInterval,
         layerTime: (CFTimeInterval) -> CFTimeInterval) {
        func inLayerTime<V>(_ history: ParameterHistory<V>) -> [(time: CFTimeInterval, value: V)] {
            history.changes.map { (layerTime($0.time), $0.value) }.sorted { $0.time < $1.time }
        }
        let layerChanges = inLayerTime(layer)
        let presenter = EmitterPresenter(tracks: animations)
        func node(_ cell: CAEmitterCell, path: [Int], names: [String]?, ancestors: [ObjectIdentifier]) -> Node {
            let recorded = EmitterCellPeriod.periods(layer: layerChanges, cell: inLayerTime(cell.history))
            let periods = EmitterCellPeriod.animated(recorded, presenter: presenter, names: names, until: end)
            let lineage = ancestors + [ObjectIdentifier(cell)]
            let siblings = cell.emitterCells ?? []
            let children = siblings.enumerated()
                .filter { !lineage.contains(ObjectIdentifier($0.element)) }
                .map { node($0.element, path: path + [$0.offset], names: Self.names(names, siblings, $0.offset), ancestors: lineage) }
            let maxLifetime = EmitterCellPeriod.longestLifetime(periods, presenter: presenter, names: names)
            return Node(path: path, names: names, periods: periods, beginTime: cell.beginTime, duration: cell.duration,
                        children: children, maxLifetime: maxLifetime,
                        reach: maxLifetime + (children.map(\.reach).max() ?? 0),
                        spawnReach: children.isEmpty ? 0 : maxLifetime + children.map(\.spawnReach).max()!)
        }
        roots = cells.enumerated().map { node($0.element, path: [$0.offset], names: Self.names([], cells, $0.offset), ancestors: []) }
        self.subcellStart = subcellStart
        self.capacity = capacity
        self.presenter = presenter
        self.anchors = anchors
    }

    /// The names key paths reach `cells[index]` by: its parent's and its own name, when it has one
    /// and is the first of its siblings with it (§9.7); nil otherwise.
    private static func names(_ parent: [String]?, _ cells: [CAEmitterCell], _ index: Int) -> [String]? {
        guard let parent, let name = cells[index].name, !cells[..<index].contains(where: { $0.name == name }) else { return nil }
        return parent + [name]
    }

    /// The visible particles alive at layer time `t`, oldest first, at most `capacity` (the newest).
    func particles(at t: CFTimeInterval) -> [EmitterParticle] {
        var collector = ParticleCollector(capacity: capacity)
        walk(span: { node in (t - node.reach, t) }) { particle, node, _ in
            guard particle.time + node.spawnReach >= collector.cutoff else { return false }
            if let visible = particle.particle(at: t, path: node.path) { collector.add(visible) }
            return true
        }
        return collector.result()
    }

    /// The drawn particles (those with an image) born in layer time `start <.. end` and alive at
    /// `alive`, oldest first by (birth time, id); no capacity applies.
    func births(after start: CFTimeInterval, through end: CFTimeInterval, aliveAt alive: CFTimeInterval) -> [EmitterParticleBirth] {
        var found: [EmitterParticleBirth] = []
        walk(span: { node in (max(start - node.spawnReach, alive - node.reach), end) }, counted: (start, end)) { particle, node, counted in
            if counted, alive - particle.time < particle.lifetime, let record = particle.record(path: node.path) {
                found.append(record)
            }
            return true
        }
        found.sort { ($0.birthTime, $0.id) < ($1.birthTime, $1.id) }
        return found
    }

    /// Visits every birth of every cell whose time lies in `span(node)` (closed), newest first
    /// per source, recursing into the sub-cells of every birth; `visit` returning false stops that
    /// source's older births. Its third argument says whether the birth is counted in
    /// `counted` = (after, through) as §9.2 counts births up to a time (by its running count, not
    /// its computed time, so consecutive ranges share and miss none); true when `counted` is nil.
    private func walk(span: (Node) -> (low: CFTimeInterval, high: CFTimeInterval),
                      counted: (after: CFTimeInterval, through: CFTimeInterval)? = nil,
                      visit: (ParticleBirth, Node, Bool) -> Bool) {
        for (i, root) in roots.enumerated() {
            let window = rootWindow(i)
            emit(root, source: ParticleRandom.mix(0, UInt64(i)), parent: nil,
                 from: window.start, to: window.end, phase: window.phase, span: span, counted: counted, visit: visit)
        }
    }

    /// The emission window of the layer's cell `i` (§9.2), resumed at its anchor when it has one.
    private func rootWindow(_ i: Int) -> (start: CFTimeInterval, end: CFTimeInterval, phase: Double) {
        let root = roots[i]
        let start = max(0, root.beginTime), end = root.emissionEnd(from: root.beginTime)
        guard let anchor = i < anchors.count ? anchors[i] : nil, anchor.start > start else { return (start, end, 0) }
        return (anchor.start, end, anchor.count)
    }

    /// Where the layer's cell `i` can resume with the same births from layer time `t` on.
    func anchor(ofRoot i: Int, at t: CFTimeInterval) -> EmissionAnchor? {
        let window = rootWindow(i)
        return EmissionSchedule(periods: roots[i].periods, from: window.start, to: window.end, phase: window.phase).anchor(at: t)
    }

    /// Emits `node` from one source (the layer when `parent` is nil) over `from..<to`, newest
    /// first, visiting the births in `span(node)` and recursing into sub-cells of every birth.
    private func emit(_ node: Node, source: UInt64, parent: ParticleBirth?, from start: CFTimeInterval, to end: CFTimeInterval,
                      phase: Double, span: (Node) -> (low: CFTimeInterval, high: CFTimeInterval),
                      counted: (after: CFTimeInterval, through: CFTimeInterval)?, visit: (ParticleBirth, Node, Bool) -> Bool) {
        let schedule = EmissionSchedule(periods: node.periods, from: start, to: end, phase: phase)
        let (low, high) = span(node)
        let indices = counted.map { schedule.born(by: $0.after) + 1 ..< schedule.born(by: $0.through) + 1 }
        schedule.forEachBirth(from: max(start, low), to: min(end, high)) { birth in
            let id = ParticleRandom.mix(source, UInt64(birth.index))
            let origin = parent.map { $0.position(atAge: birth.time - $0.time) }
            // Without emitter animations a birth reads its period's values in place (no copies).
            let particle = presenter.isEmpty
                ? ParticleBirth(id: id, time: birth.time, origin: origin, layer: node.periods[birth.period].layer,
                                cell: node.periods[birth.period].cell)
                : ParticleBirth(id: id, time: birth.time, origin: origin,
                                layer: presenter.layer(node.periods[birth.period].layer, at: birth.time),
                                cell: presenter.cell(node.periods[birth.period].cell, names: node.names, at: birth.time))
            guard visit(particle, node, indices?.contains(birth.index) ?? true) else { return false }
            for (j, child) in node.children.enumerated() {
                let offset = ParticleRandom.unit(ParticleRandom.mix(source, UInt64(j)))
                let childPhase = (offset + Double(birth.index) * Self.phaseStep).truncatingRemainder(dividingBy: 1)
                let begin = birth.time + child.beginTime
                emit(child, source: ParticleRandom.mix(id, UInt64(j)), parent: particle,
                     from: max(begin, subcellStart), to: min(birth.time + particle.lifetime, child.emissionEnd(from: begin)),
                     phase: childPhase, span: span, counted: counted, visit: visit)
            }
            return true
        }
    }
}

import Foundation

/// A layer that emits particles, as Core Animation's `CAEmitterLayer`. Particles are a pure function
/// of time: `particles(at:)` computes them at any layer time from the recorded parameter changes,
/// without simulating earlier frames (docs/engine-model.md §9).
open class CAEmitterLayer: CALayer {
    /// The values in effect now; every change is appended to `emissionHistory`.
    var emission = EmitterLayerParameters() {
        didSet { emissionHistory.record(emission, at: SceneContext.current.now) }
    }
    private(set) var emissionHistory = ParameterHistory(EmitterLayerParameters(), at: SceneContext.current.now)
    /// The media time `emitterCells` was last set; sub-cells emit only from then on (§9.2).
    private var cellsSetAt = SceneContext.current.now
    /// Animations on emitter key paths, in the order they were added, with the media times they were
    /// attached and detached: births keep their values after they are gone (§9.7).
    private var emitterAnimations: [(animation: CAAnimation, attached: CFTimeInterval, detached: CFTimeInterval)] = []
    /// Where each of the layer's cells resumes emission after its older changes were forgotten (§9.1).
    private var anchors: [(cell: CAEmitterCell, anchor: EmissionAnchor)] = []
    /// How many recorded changes and animations trigger forgetting the ones no live particle needs.
    private var forgetThreshold = CAEmitterLayer.minimumForgetThreshold
    static let minimumForgetThreshold = 256

    /// The cells the layer emits; particles of cells no longer listed disappear.
    public var emitterCells: [CAEmitterCell]? {
        didSet {
            cellsSetAt = SceneContext.current.now
            cellsRevision += 1
        }
    }
    /// Counts assignments to `emitterCells` (`particleBirthsRevision`).
    private var cellsRevision = 0
    /// Stored for clients; particles are always listed oldest first.
    public var renderMode = CAEmitterLayerRenderMode.unordered
    /// The most particles `particles(at:)` returns: the newest ones; older ones beyond it are dropped.
    public var maxParticles = 5_000

    /// An emitter with no cells, a point shape at (0, 0) and every multiplier 1.
    public override init() { super.init() }

    public required init(layer: Any) {
        super.init(layer: layer)
        guard let other = layer as? CAEmitterLayer else { return }
        emission = other.emission
        emissionHistory = other.emissionHistory
        emitterCells = other.emitterCells
        cellsSetAt = other.cellsSetAt
        cellsRevision = other.cellsRevision
        emitterAnimations = other.emitterAnimations
        anchors = other.anchors
        renderMode = other.renderMode
        maxParticles = other.maxParticles
    }

    /// The centre of the emitter shape, in the layer's coordinates.
    public var emitterPosition: CGPoint {
        get { emission.emitterPosition }
        set { emission.emitterPosition = newValue }
    }
    /// The z of the emitter shape's centre, in the layer's coordinates.
    public var emitterZPosition: CGFloat {
        get { emission.emitterZPosition }
        set { emission.emitterZPosition = newValue }
    }
    /// The shape's size; a circle's or sphere's radius is `emitterSize.width`.
    public var emitterSize: CGSize {
        get { emission.emitterSize }
        set { emission.emitterSize = newValue }
    }
    /// The depth of a cuboid emitter shape along z; other shapes ignore it.
    public var emitterDepth: CGFloat {
        get { emission.emitterDepth }
        set { emission.emitterDepth = newValue }
    }
    /// The shape particles are born on; `.point` by default (§9.3).
    public var emitterShape: CAEmitterLayerEmitterShape {
        get { emission.emitterShape }
        set { emission.emitterShape = newValue }
    }
    /// The part of the shape particles are born on; `.volume` by default (§9.3).
    public var emitterMode: CAEmitterLayerEmitterMode {
        get { emission.emitterMode }
        set { emission.emitterMode = newValue }
    }
    /// Multiplies the birth rate of every cell, sub-cells included.
    public var birthRate: Float {
        get { emission.birthRate }
        set { emission.birthRate = newValue }
    }
    /// Multiplies every particle's lifetime.
    public var lifetime: Float {
        get { emission.lifetime }
        set { emission.lifetime = newValue }
    }
    /// Multiplies every particle's initial speed.
    public var velocity: Float {
        get { emission.velocity }
        set { emission.velocity = newValue }
    }
    /// Multiplies every particle's scale and scale speed.
    public var scale: Float {
        get { emission.scale }
        set { emission.scale = newValue }
    }
    /// Multiplies every particle's spin.
    public var spin: Float {
        get { emission.spin }
        set { emission.spin = newValue }
    }
    /// Seeds the particles' randomness: the same seed gives the same particles.
    public var seed: UInt32 {
        get { emission.seed }
        set { emission.seed = newValue }
    }

    override func animationAttached(_ animation: CAAnimation) {
        guard !animation.emitterKeyPaths.isEmpty else { return }
        emitterAnimations.append((animation, SceneContext.current.now, .infinity))
    }

    override func animationDetached(_ animation: CAAnimation) {
        guard let i = emitterAnimations.lastIndex(where: { $0.animation === animation }) else { return }
        emitterAnimations[i].detached = SceneContext.current.now
    }

    /// Whether `emitterCells` has a cell at the path of names (each the first of its siblings so named);
    /// true for the empty path, the layer itself.
    func hasCell(named names: [String]) -> Bool {
        var cells = emitterCells ?? []
        for name in names {
            guard let cell = cells.first(where: { $0.name == name }) else { return false }
            cells = cell.emitterCells ?? []
        }
        return true
    }

    /// The visible particles alive at layer local time `t`, oldest first, at most `maxParticles`.
    public func particles(at t: CFTimeInterval) -> [EmitterParticle] {
        particles(at: t, limit: maxParticles)
    }

    /// As `particles(at:)`, keeping at most `min(limit, maxParticles)`: the newest.
    public func particles(at t: CFTimeInterval, limit: Int) -> [EmitterParticle] {
        forgetUnneededChanges()
        return simulator(capacity: min(limit, maxParticles), until: t).particles(at: t)
    }

    /// The records of the drawn particles (cells with `contents`) born in layer local time
    /// `start <.. end` and still alive at `end`, sub-cells included, oldest first by (birth time, id),
    /// with no cap. With `start` = −∞ they are every particle alive at `end`: evaluated at `end`, the
    /// newest `maxParticles` of them are `particles(at: end)` (§9.8). Between frames, the range from
    /// the last frame's time costs only the births in it.
    public func particleBirths(after start: CFTimeInterval, through end: CFTimeInterval) -> [EmitterParticleBirth] {
        forgetUnneededChanges()
        return simulator(capacity: 0, until: end).births(after: start, through: end, aliveAt: end)
    }

    /// Changes whenever something that decides past births changes: `emitterCells` of the layer or
    /// of any of its cells, or a cell's `beginTime` or `duration` (records computed before may no
    /// longer hold). Equal values within one process mean the same cells and windows.
    public var particleBirthsRevision: Int {
        var hasher = Hasher()
        hasher.combine(cellsRevision)
        var seen: Set<ObjectIdentifier> = []
        func add(_ cells: [CAEmitterCell]?) {
            hasher.combine(cells?.count ?? 0)
            for cell in cells ?? [] where seen.insert(ObjectIdentifier(cell)).inserted {
                hasher.combine(ObjectIdentifier(cell))
                hasher.combine(cell.cellsRevision)
                hasher.combine(cell.beginTime)
                hasher.combine(cell.duration)
                add(cell.emitterCells)
            }
        }
        add(emitterCells)
        return hasher.finalize()
    }

    /// The simulator for an evaluation at layer time `t` or earlier.
    private func simulator(capacity: Int, until t: CFTimeInterval) -> ParticleSimulator {
        let cells = emitterCells ?? []
        let tracks = emitterAnimations.map {
            EmitterAnimationTrack(animation: $0.animation, keyPaths: $0.animation.emitterKeyPaths,
                                  attached: localTime(atMedia: $0.attached), detached: localTime(atMedia: $0.detached))
        }
        let cellAnchors = cells.map { cell in anchors.first { $0.cell === cell }?.anchor }
        return ParticleSimulator(
            cells: cells, layer: emissionHistory, animations: tracks, anchors: cellAnchors,
            subcellStart: localTime(atMedia: cellsSetAt), capacity: capacity, until: t, layerTime: localTime(atMedia:))
    }

    /// Once more than `forgetThreshold` changes and animations are recorded, forgets those older than
    /// the horizon `now − 2 × reach − 10 s` (reach: the longest a particle or its descendants can
    /// live), keeping for each of the layer's cells the count its emission had reached (§9.1).
    private func forgetUnneededChanges() {
        guard model() === self else { return }
        var cells: [CAEmitterCell] = []
        func collect(_ list: [CAEmitterCell]?) {
            for cell in list ?? [] where !cells.contains(where: { $0 === cell }) {
                cells.append(cell)
                collect(cell.emitterCells)
            }
        }
        collect(emitterCells)
        func recorded() -> Int {
            emissionHistory.changes.count + cells.reduce(0) { $0 + $1.history.changes.count } + emitterAnimations.count
        }
        guard recorded() > forgetThreshold else { return }
        // Whatever happens, the next attempt waits until the records have doubled.
        defer { forgetThreshold = max(Self.minimumForgetThreshold, 2 * recorded()) }
        let now = localTime(atMedia: SceneContext.current.now)
        let current = simulator(capacity: 0, until: now)
        let cut = now - 2 * (current.roots.map(\.reach).max() ?? 0) - 10
        let cutMedia = mediaTime(fromLocal: cut)
        // Only while layer time runs forwards with media time, as the horizon assumes.
        guard cutMedia.isFinite, localTime(atMedia: cutMedia + 1) > cut else { return }
        anchors = (emitterCells ?? []).enumerated().compactMap { i, cell in
            current.anchor(ofRoot: i, at: cut).map { (cell, $0) }
        }
        emissionHistory.forget(before: cutMedia)
        for cell in cells { cell.forgetChanges(before: cutMedia) }
        emitterAnimations.removeAll { $0.detached < cutMedia }
    }
}

import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// The snowfall (雪花), docs/scenes.md §3, ported from seed 002 (first part) the way an iOS developer
/// would write it with Core Animation: demo 1's `flakeLayer` in the view controller, and demo 2's
/// `THQFlakeView` (`initializeValue`, `createSubLayerContainer`, `createSubLayer:`) with the
/// final piecewise `animationStart`. Both emitter layers stay in the tree; the settings decide
/// which cells emit, by birth rate alone, so a change never removes a falling particle.
///
/// Layers: the scene root (414 × 736, the seed's iPhone Plus like the other scenes; demo 2's
/// hard-coded 320-wide numbers are taken relative to the width: position (W/2, −30), size
/// (2W, 0)), black as the seed's view, holds at index 0 `flakeLayer` (demo 1) and above it
/// `containerLayer` (demo 2), both covering the scene rect, so their coordinates are the scene's.
/// - `flakeLayer`: emitterPosition (W/2, −10), emitterSize (2W, 0), line, outline. One plain
///   cell per image (`flake-<image>`), demo 1's numbers: lifetime 120 ± 0.25, velocity −10 ± 5,
///   yAcceleration 10, emissionLongitude −π/2, emissionRange π/4, spinRange π/4, scale 0.2.
/// - `containerLayer`: emitterPosition (W/2, −30), emitterSize (2W, 0), line, outline, shadow
///   opacity 1, radius 0, offset (0, 1), white, seed 1…100 (the seed's `arc4random() % 100 + 1`,
///   drawn from the scene's seed). Per image two containers (`containerLayer` cells, no contents,
///   velocity 0): the demo's (10/s, 0.35 s) and the piecewise fix's, each emitting one real cell
///   (`snow-<image>`): lifetime 120, velocity −100 ± 0, yAcceleration 2, emissionRange π/2,
///   spinRange π/4, colour (0.600, 0.658, 0.743, 1).
///
/// Modes (`SnowSettings.Mode`), with q = rate / images.count per image:
/// - `exact`: `flakeLayer`'s cells at birthRate q: exactly `rate` per second.
/// - `demo`: demo 2 as first written: containers 10/s × 0.35 s emitting q/s: 3.5 × rate (the
///   seed's problem 2: 10 × 0.35 × 2 = 7 when 2 were wanted).
/// - `container`: the seed's final fix: q < 5 → container (q, 1.1/q), cell q; q < 10 →
///   container (4, 1.1/4), cell q; else container (10, 0.25), cell q/2.25: about 1.1 × rate.
/// Every other cell has birthRate 0. Cells never leave `emitterCells`, and only birth rates change,
/// so particles already falling keep their image and path (docs/engine-model.md §9.1).
///
/// Start (docs/scenes.md §3, problems 1 and 3): a fresh room's first snow starts at the top
/// (`Start.top`, what the seed's product wanted): `flakeLayer.beginTime` is the room's media
/// time 0, so the first flakes are born on the line above the screen and fall in; the screen is
/// covered after about 13 s. A viewer who joins later, or a page that comes back from the
/// background, sees the snow as it is at once: particles are a pure function of time, never
/// restarted, so a room that has snowed for a while shows its steady state to every newcomer.
/// `Start.steady` (the warm start, for a scene that must show the steady state from its first
/// frame: benches, a restored room) sets `beginTime` to −120.25 s (the longest lifetime), so at
/// media time 0 its cells have emitted for a whole lifetime: `rate × 120` particles alive, the
/// screen already full. Either way the containers' real cells start at the top (the engine
/// emits sub-cells only from when `emitterCells` was set, as iOS's container trick shows).
///
/// Fixed from the seed: the rate is exact in `exact` mode instead of piecewise-approximate; a
/// change of images or rate keeps the falling particles (the seed rebuilt `emitterCells`, which
/// restarts the snow); the demo's and the fix's containers are kept apart (one per image each).
/// The images are this scene's assets (`snowflake`, `snowflake-star`, `petal`); the server
/// chooses which fall (`setSnow`). No input; no events.
public final class SnowScene: Scene {
    public static let info = SceneInfo(
        id: "snow",
        title: "Snowfall",
        size: CGSize(width: 414, height: 736),
        interactions: [],
        assets: [
            SceneAsset(id: "snowflake", resource: "snowflake.svg", bundle: .module, width: 32, height: 32),
            SceneAsset(id: "snowflake-star", resource: "snowflake-star.svg", bundle: .module, width: 32, height: 32),
            SceneAsset(id: "petal", resource: "petal.svg", bundle: .module, width: 24, height: 32),
        ],
        summary: LocalizedText(en: "Watch the snow fall; there is nothing to tap.", zh: "看雪花飘落,不用点。")
    )

    // The seed's numbers: demo 1's flakeLayer and cell.
    static let flakeEmitterY: CGFloat = -10
    static let flakeLifetime: Float = 120
    static let flakeLifetimeRange: Float = 0.5
    static let flakeVelocity: CGFloat = -10
    static let flakeVelocityRange: CGFloat = 10
    static let flakeYAcceleration: CGFloat = 10
    static let flakeEmissionLongitude: CGFloat = -.pi / 2
    static let flakeEmissionRange: CGFloat = .pi / 4
    static let flakeSpinRange: CGFloat = 0.25 * .pi
    static let flakeScale: CGFloat = 0.2
    // Demo 2's THQFlakeView: layer, container and real cell.
    static let containerEmitterY: CGFloat = -30
    static let containerShadowOffset = CGSize(width: 0, height: 1)
    static let demoContainerRate: Float = 10
    static let demoContainerLifetime: Float = 0.35
    static let snowLifetime: Float = 120
    static let snowVelocity: CGFloat = -100
    static let snowYAcceleration: CGFloat = 2
    static let snowEmissionRange: CGFloat = 0.5 * .pi
    static let snowSpinRange: CGFloat = 0.25 * .pi
    static let snowColor = CGColor(red: 0.600, green: 0.658, blue: 0.743, alpha: 1)
    /// Both layers' emitterSize is twice the width.
    static let emitterWidthFactor: CGFloat = 2
    /// Warm start: the longest lifetime of `flakeLayer`'s cells (120 + 0.5/2).
    public static let warmUp = CFTimeInterval(flakeLifetime + flakeLifetimeRange / 2)

    /// The seed's piecewise fix for q particles per second of one image (`animationStart`).
    static func containerFix(_ q: Double) -> (containerRate: Float, containerLifetime: Float, cellRate: Float) {
        let rate = Float(q)
        if rate <= 0 { return (0, 1, 0) }
        if rate < 5 { return (rate, 1.1 / rate, rate) }
        if rate < 10 { return (4, 1.1 / 4, rate) }
        return (10, 0.25, rate / 2.25)
    }

    /// One image's cells in both layers.
    struct ImageCells {
        let flake: CAEmitterCell
        let demoContainer: CAEmitterCell
        let demoSnow: CAEmitterCell
        let fixContainer: CAEmitterCell
        let fixSnow: CAEmitterCell
    }

    public var layer: CALayer
    /// Demo 1's emitter.
    let flakeLayer: CAEmitterLayer
    /// Demo 2's THQFlakeView emitter.
    let containerLayer: CAEmitterLayer
    /// Cells by asset id.
    let cells: [String: ImageCells]
    /// What the snow shows now; `setSnow(_:)` changes it while it snows.
    public private(set) var settings: SnowSettings

    /// Where the first snow is at media time 0.
    public enum Start: Sendable {
        /// Nothing has fallen yet: the first flakes are born above the screen (a fresh room).
        case top
        /// A whole lifetime has already fallen: the steady state, the screen full (warm start).
        case steady
    }

    /// The admin command that changes what falls.
    public static var commands: [String] { ["snow"] }

    /// The snowfall and its command (`SnowController`).
    public static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController {
        let (stage, scene) = SceneStage.make { SnowScene(seed: seed) }
        return SnowController(scene: scene, stage: stage, logger: services.logger)
    }

    /// A fresh room: the snow starts at the top.
    public convenience init(seed: UInt64) {
        self.init(seed: seed, settings: SnowSettings())
    }

    /// The scene at media time 0 showing `settings` (valid for the scene's assets: precondition),
    /// starting at the top or, with `start: .steady`, in the steady state.
    public init(seed: UInt64, settings: SnowSettings, start: Start = .top) {
        precondition(settings.validationError(assets: Self.info.assets.map(\.id)) == nil, "snow settings")
        self.settings = settings
        let size = Self.info.size
        let rect = CGRect(origin: .zero, size: size)
        var random = SeededRandom(seed: seed)
        layer = CALayer()
        layer.frame = rect
        layer.backgroundColor = .black

        flakeLayer = CAEmitterLayer()
        flakeLayer.name = "flakeLayer"
        flakeLayer.frame = rect
        flakeLayer.emitterPosition = CGPoint(x: size.width / 2, y: Self.flakeEmitterY)
        flakeLayer.emitterSize = CGSize(width: size.width * Self.emitterWidthFactor, height: 0)
        flakeLayer.emitterShape = .line
        flakeLayer.emitterMode = .outline
        flakeLayer.seed = UInt32(truncatingIfNeeded: random.next())
        flakeLayer.beginTime = CACurrentMediaTime() - (start == .steady ? Self.warmUp : 0)

        containerLayer = CAEmitterLayer()
        containerLayer.name = "containerLayer"
        containerLayer.frame = rect
        containerLayer.emitterPosition = CGPoint(x: size.width / 2, y: Self.containerEmitterY)
        containerLayer.emitterSize = CGSize(width: size.width * Self.emitterWidthFactor, height: 0)
        containerLayer.emitterMode = .outline
        containerLayer.emitterShape = .line
        containerLayer.shadowOpacity = 1
        containerLayer.shadowRadius = 0
        containerLayer.shadowOffset = Self.containerShadowOffset
        containerLayer.shadowColor = .white
        containerLayer.seed = UInt32(random.next() % 100) + 1

        var cells: [String: ImageCells] = [:]
        for asset in Self.info.assets {
            let image = CGImage(named: asset.id, width: asset.width, height: asset.height)
            let demoSnow = Self.createSubLayer(image)
            let fixSnow = Self.createSubLayer(image)
            let demoContainer = Self.createSubLayerContainer(birthRate: 0, lifetime: Self.demoContainerLifetime)
            demoContainer.emitterCells = [demoSnow]
            let fixContainer = Self.createSubLayerContainer(birthRate: 0, lifetime: 1)
            fixContainer.emitterCells = [fixSnow]
            cells[asset.id] = ImageCells(flake: Self.emitterCell(image), demoContainer: demoContainer, demoSnow: demoSnow,
                                         fixContainer: fixContainer, fixSnow: fixSnow)
        }
        self.cells = cells
        let ordered = Self.info.assets.compactMap { cells[$0.id] }
        flakeLayer.emitterCells = ordered.map(\.flake)
        containerLayer.emitterCells = ordered.map(\.demoContainer) + ordered.map(\.fixContainer)
        apply(settings)

        layer.insertSublayer(flakeLayer, at: 0)
        layer.addSublayer(containerLayer)
    }

    /// Demo 1's cell for `image`, not emitting until `apply` sets its birth rate.
    static func emitterCell(_ image: CGImage) -> CAEmitterCell {
        let emitterCell = CAEmitterCell()
        emitterCell.name = "flake-\(image.name)"
        emitterCell.contents = image
        emitterCell.birthRate = 0
        emitterCell.lifetime = flakeLifetime
        emitterCell.lifetimeRange = flakeLifetimeRange
        emitterCell.velocity = flakeVelocity
        emitterCell.velocityRange = flakeVelocityRange
        emitterCell.yAcceleration = flakeYAcceleration
        emitterCell.emissionLongitude = flakeEmissionLongitude
        emitterCell.emissionRange = flakeEmissionRange
        emitterCell.spinRange = flakeSpinRange
        emitterCell.scale = flakeScale
        emitterCell.scaleSpeed = 0
        emitterCell.scaleRange = 0
        return emitterCell
    }

    /// Demo 2's `createSubLayerContainer`: an invisible cell that only carries sub-cells.
    static func createSubLayerContainer(birthRate: Float, lifetime: Float) -> CAEmitterCell {
        let containerCell = CAEmitterCell()
        containerCell.name = "containerLayer"
        containerCell.birthRate = birthRate
        containerCell.velocity = 0
        containerCell.lifetime = lifetime
        return containerCell
    }

    /// Demo 2's `createSubLayer:`, its birth rate set by `apply`.
    static func createSubLayer(_ image: CGImage) -> CAEmitterCell {
        let emitterCell = CAEmitterCell()
        emitterCell.name = "snow-\(image.name)"
        emitterCell.birthRate = 0
        emitterCell.lifetime = snowLifetime
        emitterCell.velocity = snowVelocity
        emitterCell.velocityRange = 0
        emitterCell.yAcceleration = snowYAcceleration
        emitterCell.emissionRange = snowEmissionRange
        emitterCell.spinRange = snowSpinRange
        emitterCell.contents = image
        emitterCell.color = snowColor
        return emitterCell
    }

    /// Changes what falls from now on (call inside the room's context; `settings` valid for the
    /// scene's assets, else nothing changes and it returns false). Falling particles keep theirs.
    @discardableResult
    public func setSnow(_ settings: SnowSettings) -> Bool {
        guard settings.validationError(assets: Self.info.assets.map(\.id)) == nil else { return false }
        self.settings = settings
        apply(settings)
        return true
    }

    /// Sets every cell's birth rate (and the fix's container lifetime) for `settings`.
    private func apply(_ settings: SnowSettings) {
        let q = settings.ratePerImage
        let fix = Self.containerFix(q)
        for (id, cells) in cells {
            let falls = settings.images.contains(id)
            cells.flake.birthRate = falls && settings.mode == .exact ? Float(q) : 0
            cells.demoContainer.birthRate = falls && settings.mode == .demo ? Self.demoContainerRate : 0
            cells.demoSnow.birthRate = Float(q)
            cells.fixContainer.birthRate = falls && settings.mode == .container ? fix.containerRate : 0
            cells.fixContainer.lifetime = fix.containerLifetime
            cells.fixSnow.birthRate = fix.cellRate
        }
    }

    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }

    public func takeEvents() -> [SceneEvent] { [] }
}

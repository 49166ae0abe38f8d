import Foundation

/// One source of particles, as Core Animation's `CAEmitterCell`. Every change is recorded with the
/// media time it was made at, so particles born afterwards use it and live ones keep what they were
/// born with (docs/engine-model.md §9). Mean-and-range pairs give values uniform in
/// [mean − range/2, mean + range/2].
open class CAEmitterCell: CAMediaTiming {
    /// The values in effect now; every change is appended to `history`.
    var parameters = EmitterCellParameters() {
        didSet { history.record(parameters, at: SceneContext.current.now) }
    }
    private(set) var history = ParameterHistory(EmitterCellParameters(), at: SceneContext.current.now)

    /// Cells each particle of this cell emits, as long as it lives.
    public var emitterCells: [CAEmitterCell]? {
        didSet { cellsRevision += 1 }
    }
    /// Counts assignments to `emitterCells` (`CAEmitterLayer.particleBirthsRevision`).
    private(set) var cellsRevision = 0

    // MARK: CAMediaTiming (docs/engine-model.md §9.6: beginTime and duration bound the emission)
    /// When emission starts: layer local time for the layer's cells, parent age for sub-cells; 0 by default (§9.2).
    public var beginTime: CFTimeInterval = 0
    /// Seconds the cell emits for from `beginTime`; infinite by default (§9.2).
    public var duration: CFTimeInterval = .infinity
    /// Stored for `CAMediaTiming` and ignored: cells emit in their layer's time (docs/engine-model.md §9.2).
    public var speed: Float = 1
    /// Stored and ignored, unlike on iOS (docs/engine-model.md §9.2).
    public var timeOffset: CFTimeInterval = 0
    /// Stored and ignored, unlike on iOS (docs/engine-model.md §9.2).
    public var repeatCount: Float = 0
    /// Stored and ignored, unlike on iOS (docs/engine-model.md §9.2).
    public var repeatDuration: CFTimeInterval = 0
    /// Stored and ignored, unlike on iOS (docs/engine-model.md §9.2).
    public var autoreverses = false
    /// Stored and ignored, unlike on iOS (docs/engine-model.md §9.2).
    public var fillMode: CAMediaTimingFillMode = .removed

    /// A cell with Core Animation's defaults: birth rate and lifetime 0 (it emits nothing), white, no contents.
    public init() {}

    /// Forgets recorded changes made before media time `time` but the one in effect then (§9.1).
    func forgetChanges(before time: CFTimeInterval) {
        history.forget(before: time)
    }

    /// The name used in particles (and key paths on iOS).
    public var name: String? {
        get { parameters.name }
        set { parameters.name = newValue }
    }
    /// Whether the cell emits.
    public var isEnabled: Bool {
        get { parameters.isEnabled }
        set { parameters.isEnabled = newValue }
    }
    /// Particles per second per source (the layer, or each live parent particle).
    public var birthRate: Float {
        get { parameters.birthRate }
        set { parameters.birthRate = newValue }
    }
    /// Seconds a particle lives.
    public var lifetime: Float {
        get { parameters.lifetime }
        set { parameters.lifetime = newValue }
    }
    /// Spread of `lifetime`: each particle's is uniform within ± half this, in seconds.
    public var lifetimeRange: Float {
        get { parameters.lifetimeRange }
        set { parameters.lifetimeRange = newValue }
    }
    /// Tilt of the emission axis out of the x-y plane, towards +z, in radians.
    public var emissionLatitude: CGFloat {
        get { parameters.emissionLatitude }
        set { parameters.emissionLatitude = newValue }
    }
    /// Angle of the emission axis in the x-y plane from +x towards +y (down), in radians.
    public var emissionLongitude: CGFloat {
        get { parameters.emissionLongitude }
        set { parameters.emissionLongitude = newValue }
    }
    /// Half-angle of the cone of directions about the emission axis, in radians.
    public var emissionRange: CGFloat {
        get { parameters.emissionRange }
        set { parameters.emissionRange = newValue }
    }
    /// Initial speed along the emission direction, in points per second.
    public var velocity: CGFloat {
        get { parameters.velocity }
        set { parameters.velocity = newValue }
    }
    /// Spread of `velocity`: each particle's is uniform within ± half this, in points per second.
    public var velocityRange: CGFloat {
        get { parameters.velocityRange }
        set { parameters.velocityRange = newValue }
    }
    /// Acceleration in points per second², in the layer's coordinates.
    public var xAcceleration: CGFloat {
        get { parameters.xAcceleration }
        set { parameters.xAcceleration = newValue }
    }
    /// Acceleration along y (down on screen), in points per second²; gravity is positive.
    public var yAcceleration: CGFloat {
        get { parameters.yAcceleration }
        set { parameters.yAcceleration = newValue }
    }
    /// Acceleration along z, in points per second².
    public var zAcceleration: CGFloat {
        get { parameters.zAcceleration }
        set { parameters.zAcceleration = newValue }
    }
    /// The particle's size factor at birth, applied to its `contents`; 1 by default.
    public var scale: CGFloat {
        get { parameters.scale }
        set { parameters.scale = newValue }
    }
    /// Spread of `scale`: each particle's is uniform within ± half this.
    public var scaleRange: CGFloat {
        get { parameters.scaleRange }
        set { parameters.scaleRange = newValue }
    }
    /// Change of scale per second.
    public var scaleSpeed: CGFloat {
        get { parameters.scaleSpeed }
        set { parameters.scaleSpeed = newValue }
    }
    /// Rotation speed in radians per second.
    public var spin: CGFloat {
        get { parameters.spin }
        set { parameters.spin = newValue }
    }
    /// Spread of `spin`: each particle's is uniform within ± half this, in radians per second.
    public var spinRange: CGFloat {
        get { parameters.spinRange }
        set { parameters.spinRange = newValue }
    }
    /// The base colour (nil reads as opaque white).
    public var color: CGColor? {
        get { parameters.color }
        set { parameters.color = newValue }
    }
    /// Spread of the colour's red component: uniform within ± half this, in 0…1 units.
    public var redRange: Float {
        get { parameters.redRange }
        set { parameters.redRange = newValue }
    }
    /// Spread of the colour's green component: uniform within ± half this, in 0…1 units.
    public var greenRange: Float {
        get { parameters.greenRange }
        set { parameters.greenRange = newValue }
    }
    /// Spread of the colour's blue component: uniform within ± half this, in 0…1 units.
    public var blueRange: Float {
        get { parameters.blueRange }
        set { parameters.blueRange = newValue }
    }
    /// Spread of the colour's alpha: uniform within ± half this, in 0…1 units.
    public var alphaRange: Float {
        get { parameters.alphaRange }
        set { parameters.alphaRange = newValue }
    }
    /// Change of each colour component per second.
    public var redSpeed: Float {
        get { parameters.redSpeed }
        set { parameters.redSpeed = newValue }
    }
    /// Change of the green component per second of a particle's life.
    public var greenSpeed: Float {
        get { parameters.greenSpeed }
        set { parameters.greenSpeed = newValue }
    }
    /// Change of the blue component per second of a particle's life.
    public var blueSpeed: Float {
        get { parameters.blueSpeed }
        set { parameters.blueSpeed = newValue }
    }
    /// Change of alpha per second of a particle's life (negative fades it out).
    public var alphaSpeed: Float {
        get { parameters.alphaSpeed }
        set { parameters.alphaSpeed = newValue }
    }
    /// The particle image; a cell without one emits invisible particles that still emit their sub-cells.
    public var contents: CGImage? {
        get { parameters.contents }
        set { parameters.contents = newValue }
    }
}

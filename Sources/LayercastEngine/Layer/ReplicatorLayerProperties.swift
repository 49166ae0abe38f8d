import Foundation

/// The values a `CAReplicatorLayer` draws its copies with, with Core Animation's defaults.
public struct ReplicatorLayerProperties: Equatable, Sendable {
    /// Copies drawn, the original included; animated values are truncated, negative ones draw none.
    public var instanceCount: Int = 1
    /// Whether the copies share one 3D space instead of being flattened; false by default.
    public var preservesDepth = false
    /// Seconds each copy's sublayer time lags the previous one's.
    public var instanceDelay: CFTimeInterval = 0
    /// Maps copy k − 1 to copy k, about the centre of the replicator's bounds.
    public var instanceTransform = CATransform3DIdentity
    /// Multiplies the original's colours; nil means opaque white.
    public var instanceColor: CGColor? = .white
    /// Added to the multiplier's red per copy.
    public var instanceRedOffset: Float = 0
    /// Added to the multiplier's green per copy.
    public var instanceGreenOffset: Float = 0
    /// Added to the multiplier's blue per copy.
    public var instanceBlueOffset: Float = 0
    /// Added to the multiplier's alpha per copy.
    public var instanceAlphaOffset: Float = 0

    /// Scaled to cover the bounds, keeping its aspect ratio, centred.
    public init() {}

    /// How copy `index` (0 is the original) is drawn, given the replicator's bounds.
    public func instance(_ index: Int, bounds: CGRect) -> ReplicatorInstance {
        let c = instanceColor ?? .white
        let k = CGFloat(index)
        func channel(_ base: CGFloat, _ offset: Float) -> CGFloat { min(1, max(0, base + CGFloat(offset) * k)) }
        let color = CGColor(red: channel(c.red, instanceRedOffset), green: channel(c.green, instanceGreenOffset),
                            blue: channel(c.blue, instanceBlueOffset), alpha: channel(c.alpha, instanceAlphaOffset))
        var power = CATransform3DIdentity
        for _ in 0..<max(0, index) { power = CATransform3DConcat(power, instanceTransform) }
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        let transform = index == 0 ? CATransform3DIdentity : CATransform3DConcat(
            CATransform3DConcat(CATransform3DMakeTranslation(-centre.x, -centre.y, 0), power),
            CATransform3DMakeTranslation(centre.x, centre.y, 0))
        return ReplicatorInstance(index: index, transform: transform, color: color,
                                  timeShift: -CFTimeInterval(index) * instanceDelay)
    }
}

/// One drawn copy of a replicator's sublayers (copies are not layers, as in Core Animation).
public struct ReplicatorInstance: Equatable, Sendable {
    /// 0 for the original.
    public var index: Int
    /// Maps the copy's sublayer space into the replicator's: `instanceTransform` applied `index` times
    /// about the bounds' centre, before the replicator's `sublayerTransform`.
    public var transform: CATransform3D
    /// Multiplies every colour of the copy: `instanceColor` plus `index` times the offsets, each
    /// component clamped to 0…1.
    public var color: CGColor
    /// Added to the sublayers' parent time: copy k shows them as at local time t − k·instanceDelay.
    public var timeShift: CFTimeInterval
}

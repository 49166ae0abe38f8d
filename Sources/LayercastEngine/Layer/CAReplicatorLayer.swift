import Foundation

/// A layer that draws its sublayers `instanceCount` times, each copy transformed, tinted and delayed
/// from the previous one. The copies are drawn, not layers: hit testing finds only the originals.
open class CAReplicatorLayer: CALayer {
    /// A replicator drawing one copy (its sublayers as they are).
    public override init() {
        super.init()
        properties.replicator = ReplicatorLayerProperties()
    }

    public required init(layer: Any) { super.init(layer: layer) }

    /// How many times the sublayers are drawn, the original included; 1 by default, ≤ 0 draws none.
    public var instanceCount: Int {
        get { properties.replicator!.instanceCount }
        set { set(\.replicator!.instanceCount, newValue, animating: .instanceCount) }
    }
    /// Keeps the copies in one 3D space, as a `CATransformLayer` does.
    public var preservesDepth: Bool {
        get { properties.replicator!.preservesDepth }
        set { set(\.replicator!.preservesDepth, newValue, animating: nil) }
    }
    /// Seconds each copy's animations lag the previous copy's; 0 by default.
    public var instanceDelay: CFTimeInterval {
        get { properties.replicator!.instanceDelay }
        set { set(\.replicator!.instanceDelay, newValue, animating: .instanceDelay) }
    }
    /// The transform taking each copy to the next, about the replicator's centre; identity by default.
    public var instanceTransform: CATransform3D {
        get { properties.replicator!.instanceTransform }
        set { set(\.replicator!.instanceTransform, newValue, animating: .instanceTransform) }
    }
    /// Multiplies the original's colours; opaque white (no change) by default.
    public var instanceColor: CGColor? {
        get { properties.replicator!.instanceColor }
        set { set(\.replicator!.instanceColor, newValue, animating: .instanceColor) }
    }
    /// Added to the colour multiplier's red for each further copy, clamped to 0…1; 0 by default.
    public var instanceRedOffset: Float {
        get { properties.replicator!.instanceRedOffset }
        set { set(\.replicator!.instanceRedOffset, newValue, animating: .instanceRedOffset) }
    }
    /// Added to the colour multiplier's green for each further copy, clamped to 0…1; 0 by default.
    public var instanceGreenOffset: Float {
        get { properties.replicator!.instanceGreenOffset }
        set { set(\.replicator!.instanceGreenOffset, newValue, animating: .instanceGreenOffset) }
    }
    /// Added to the colour multiplier's blue for each further copy, clamped to 0…1; 0 by default.
    public var instanceBlueOffset: Float {
        get { properties.replicator!.instanceBlueOffset }
        set { set(\.replicator!.instanceBlueOffset, newValue, animating: .instanceBlueOffset) }
    }
    /// Added to the colour multiplier's alpha for each further copy (negative fades them); 0 by default.
    public var instanceAlphaOffset: Float {
        get { properties.replicator!.instanceAlphaOffset }
        set { set(\.replicator!.instanceAlphaOffset, newValue, animating: .instanceAlphaOffset) }
    }

    open override var flattensSublayers: Bool { !properties.replicator!.preservesDepth }

    /// Visits copy `index`'s sublayer trees at media time `t` with their presented properties: as
    /// `forEachPresented`, with the sublayers' parent time shifted by −index·instanceDelay (the
    /// replicator's presented delay at `t`).
    public func forEachPresentedCopy(_ index: Int, at t: CFTimeInterval, _ body: (CALayer, LayerProperties) -> Void) {
        let local = localTime(atMedia: t)
        let delay = presentedProperties(atLocalTime: local).replicator?.instanceDelay ?? 0
        for child in sublayers ?? [] { child.visitPresented(parentTime: local - CFTimeInterval(index) * delay, body) }
    }
}

import Foundation

/// A layer that draws its sublayers `instanceCount` times, each copy transformed, tinted and delayed
/// from the previous one. The copies are drawn, not layers: hit testing finds only the originals.
open class CAReplicatorLayer: CALayer {
    public override init() {
        super.init()
        properties.replicator = ReplicatorLayerProperties()
    }

    public required init(layer: Any) { super.init(layer: layer) }

    public var instanceCount: Int {
        get { properties.replicator!.instanceCount }
        set { set(\.replicator!.instanceCount, newValue, animating: .instanceCount) }
    }
    /// Keeps the copies in one 3D space, as a `CATransformLayer` does.
    public var preservesDepth: Bool {
        get { properties.replicator!.preservesDepth }
        set { set(\.replicator!.preservesDepth, newValue, animating: nil) }
    }
    public var instanceDelay: CFTimeInterval {
        get { properties.replicator!.instanceDelay }
        set { set(\.replicator!.instanceDelay, newValue, animating: .instanceDelay) }
    }
    public var instanceTransform: CATransform3D {
        get { properties.replicator!.instanceTransform }
        set { set(\.replicator!.instanceTransform, newValue, animating: .instanceTransform) }
    }
    public var instanceColor: CGColor? {
        get { properties.replicator!.instanceColor }
        set { set(\.replicator!.instanceColor, newValue, animating: .instanceColor) }
    }
    public var instanceRedOffset: Float {
        get { properties.replicator!.instanceRedOffset }
        set { set(\.replicator!.instanceRedOffset, newValue, animating: .instanceRedOffset) }
    }
    public var instanceGreenOffset: Float {
        get { properties.replicator!.instanceGreenOffset }
        set { set(\.replicator!.instanceGreenOffset, newValue, animating: .instanceGreenOffset) }
    }
    public var instanceBlueOffset: Float {
        get { properties.replicator!.instanceBlueOffset }
        set { set(\.replicator!.instanceBlueOffset, newValue, animating: .instanceBlueOffset) }
    }
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

import Foundation

/// A layer that draws nothing itself and does not flatten its sublayers, so they share one 3D
/// space: the way to build a cube out of six faces.
open class CATransformLayer: CALayer {
    /// A transform layer with no sublayers.
    public override init() { super.init() }
    public required init(layer: Any) { super.init(layer: layer) }

    open override var flattensSublayers: Bool { false }
}

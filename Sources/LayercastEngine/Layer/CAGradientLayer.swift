import Foundation

/// A layer that fills its bounds with a colour gradient over its background and under its sublayers.
open class CAGradientLayer: CALayer {
    /// A gradient layer with no colours (it draws no gradient until given some).
    public override init() {
        super.init()
        properties.gradient = GradientLayerProperties()
    }

    public required init(layer: Any) { super.init(layer: layer) }

    /// The stops' colours in order; nil or empty draws nothing; animatable.
    public var colors: [CGColor]? {
        get { properties.gradient!.colors }
        set { set(\.gradient!.colors, newValue, animating: .colors) }
    }
    /// Stop positions as iOS spells them; stored as `CGFloat`s in `GradientLayerProperties`.
    public var locations: [NSNumber]? {
        get { properties.gradient!.locations?.map { NSNumber(value: Double($0)) } }
        set { set(\.gradient!.locations, newValue?.map { CGFloat($0.doubleValue) }, animating: .locations) }
    }
    /// Where the gradient starts, in the bounds' unit space; (0.5, 0), the top middle, by default.
    public var startPoint: CGPoint {
        get { properties.gradient!.startPoint }
        set { set(\.gradient!.startPoint, newValue, animating: .startPoint) }
    }
    /// Where the gradient ends, in the bounds' unit space; (0.5, 1), the bottom middle, by default.
    public var endPoint: CGPoint {
        get { properties.gradient!.endPoint }
        set { set(\.gradient!.endPoint, newValue, animating: .endPoint) }
    }
    /// The gradient's geometry: axial (the default), radial or conic (docs/engine-model.md §10.2).
    public var type: CAGradientLayerType {
        get { properties.gradient!.type }
        set { set(\.gradient!.type, newValue, animating: nil) }
    }
}

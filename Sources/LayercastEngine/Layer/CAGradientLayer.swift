import Foundation

/// A layer that fills its bounds with a colour gradient over its background and under its sublayers.
open class CAGradientLayer: CALayer {
    public override init() {
        super.init()
        properties.gradient = GradientLayerProperties()
    }

    public required init(layer: Any) { super.init(layer: layer) }

    public var colors: [CGColor]? {
        get { properties.gradient!.colors }
        set { set(\.gradient!.colors, newValue, animating: .colors) }
    }
    /// Stop positions as iOS spells them; stored as `CGFloat`s in `GradientLayerProperties`.
    public var locations: [NSNumber]? {
        get { properties.gradient!.locations?.map { NSNumber(value: Double($0)) } }
        set { set(\.gradient!.locations, newValue?.map { CGFloat($0.doubleValue) }, animating: .locations) }
    }
    public var startPoint: CGPoint {
        get { properties.gradient!.startPoint }
        set { set(\.gradient!.startPoint, newValue, animating: .startPoint) }
    }
    public var endPoint: CGPoint {
        get { properties.gradient!.endPoint }
        set { set(\.gradient!.endPoint, newValue, animating: .endPoint) }
    }
    public var type: CAGradientLayerType {
        get { properties.gradient!.type }
        set { set(\.gradient!.type, newValue, animating: nil) }
    }
}

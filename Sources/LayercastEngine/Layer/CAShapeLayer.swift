import Foundation

/// A layer that fills and strokes a path in its bounds space, over its background and under its
/// sublayers. Hit testing uses the bounds, not the path, as in Core Animation.
open class CAShapeLayer: CALayer {
    public override init() {
        super.init()
        properties.shape = ShapeLayerProperties()
    }

    public required init(layer: Any) { super.init(layer: layer) }

    /// The path; animatable by `CABasicAnimation` but, as in Core Animation, never implicitly.
    public var path: CGPath? {
        get { properties.shape!.path }
        set { set(\.shape!.path, newValue, animating: nil) }
    }
    public var fillColor: CGColor? {
        get { properties.shape!.fillColor }
        set { set(\.shape!.fillColor, newValue, animating: .fillColor) }
    }
    public var fillRule: CAShapeLayerFillRule {
        get { properties.shape!.fillRule }
        set { set(\.shape!.fillRule, newValue, animating: nil) }
    }
    public var strokeColor: CGColor? {
        get { properties.shape!.strokeColor }
        set { set(\.shape!.strokeColor, newValue, animating: .strokeColor) }
    }
    public var lineWidth: CGFloat {
        get { properties.shape!.lineWidth }
        set { set(\.shape!.lineWidth, newValue, animating: .lineWidth) }
    }
    public var lineCap: CAShapeLayerLineCap {
        get { properties.shape!.lineCap }
        set { set(\.shape!.lineCap, newValue, animating: nil) }
    }
    public var lineJoin: CAShapeLayerLineJoin {
        get { properties.shape!.lineJoin }
        set { set(\.shape!.lineJoin, newValue, animating: nil) }
    }
    public var miterLimit: CGFloat {
        get { properties.shape!.miterLimit }
        set { set(\.shape!.miterLimit, newValue, animating: .miterLimit) }
    }
    /// Dash lengths as iOS spells them; stored as `CGFloat`s in `ShapeLayerProperties`.
    public var lineDashPattern: [NSNumber]? {
        get { properties.shape!.lineDashPattern?.map { NSNumber(value: Double($0)) } }
        set { set(\.shape!.lineDashPattern, newValue?.map { CGFloat($0.doubleValue) }, animating: nil) }
    }
    public var lineDashPhase: CGFloat {
        get { properties.shape!.lineDashPhase }
        set { set(\.shape!.lineDashPhase, newValue, animating: .lineDashPhase) }
    }
    public var strokeStart: CGFloat {
        get { properties.shape!.strokeStart }
        set { set(\.shape!.strokeStart, newValue, animating: .strokeStart) }
    }
    public var strokeEnd: CGFloat {
        get { properties.shape!.strokeEnd }
        set { set(\.shape!.strokeEnd, newValue, animating: .strokeEnd) }
    }
}

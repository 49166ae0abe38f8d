import Foundation

/// A layer that fills and strokes a path in its bounds space, over its background and under its
/// sublayers. Hit testing uses the bounds, not the path, as in Core Animation.
open class CAShapeLayer: CALayer {
    /// A shape layer with no path, Core Animation's defaults otherwise (docs/engine-model.md §10.1).
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
    /// The colour filling the path's inside; opaque black by default, nil fills nothing.
    public var fillColor: CGColor? {
        get { properties.shape!.fillColor }
        set { set(\.shape!.fillColor, newValue, animating: .fillColor) }
    }
    /// How the path's inside is decided; `.nonZero` by default.
    public var fillRule: CAShapeLayerFillRule {
        get { properties.shape!.fillRule }
        set { set(\.shape!.fillRule, newValue, animating: nil) }
    }
    /// The colour of the path's outline; nil (no stroke) by default.
    public var strokeColor: CGColor? {
        get { properties.shape!.strokeColor }
        set { set(\.shape!.strokeColor, newValue, animating: .strokeColor) }
    }
    /// The stroke's width in points, centred on the path; 1 by default.
    public var lineWidth: CGFloat {
        get { properties.shape!.lineWidth }
        set { set(\.shape!.lineWidth, newValue, animating: .lineWidth) }
    }
    /// The shape at the stroke's open ends; `.butt` by default.
    public var lineCap: CAShapeLayerLineCap {
        get { properties.shape!.lineCap }
        set { set(\.shape!.lineCap, newValue, animating: nil) }
    }
    /// The shape where stroked segments meet; `.miter` by default.
    public var lineJoin: CAShapeLayerLineJoin {
        get { properties.shape!.lineJoin }
        set { set(\.shape!.lineJoin, newValue, animating: nil) }
    }
    /// The longest a miter join may be, as a multiple of the line width, before it is bevelled; 10 by default.
    public var miterLimit: CGFloat {
        get { properties.shape!.miterLimit }
        set { set(\.shape!.miterLimit, newValue, animating: .miterLimit) }
    }
    /// Dash lengths as iOS spells them; stored as `CGFloat`s in `ShapeLayerProperties`.
    public var lineDashPattern: [NSNumber]? {
        get { properties.shape!.lineDashPattern?.map { NSNumber(value: Double($0)) } }
        set { set(\.shape!.lineDashPattern, newValue?.map { CGFloat($0.doubleValue) }, animating: nil) }
    }
    /// How far into the dash pattern the stroke starts, in points; 0 by default.
    public var lineDashPhase: CGFloat {
        get { properties.shape!.lineDashPhase }
        set { set(\.shape!.lineDashPhase, newValue, animating: .lineDashPhase) }
    }
    /// Where the stroke starts, as a fraction 0…1 of the path's length; 0 by default.
    public var strokeStart: CGFloat {
        get { properties.shape!.strokeStart }
        set { set(\.shape!.strokeStart, newValue, animating: .strokeStart) }
    }
    /// Where the stroke ends, as a fraction 0…1 of the path's length; 1 by default (animate it to draw a line).
    public var strokeEnd: CGFloat {
        get { properties.shape!.strokeEnd }
        set { set(\.shape!.strokeEnd, newValue, animating: .strokeEnd) }
    }
}

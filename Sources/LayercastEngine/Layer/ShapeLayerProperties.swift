import Foundation

/// The values a `CAShapeLayer` draws its path with, with Core Animation's defaults.
public struct ShapeLayerProperties: Equatable, Sendable {
    /// Stored as a snapshot: a `CGMutablePath` assigned here is copied (`CGPath.copy()`).
    public var path: CGPath? {
        didSet { if let path, path is CGMutablePath { self.path = path.frozen } }
    }
    /// nil draws no fill.
    public var fillColor: CGColor? = .black
    /// Which regions the fill covers; `.nonZero` by default.
    public var fillRule: CAShapeLayerFillRule = .nonZero
    /// nil draws no stroke.
    public var strokeColor: CGColor?
    /// The stroke's width in points.
    public var lineWidth: CGFloat = 1
    /// The shape of the stroke's open ends.
    public var lineCap: CAShapeLayerLineCap = .butt
    /// The shape where stroked segments meet.
    public var lineJoin: CAShapeLayerLineJoin = .miter
    /// The miter length limit, as a multiple of the line width.
    public var miterLimit: CGFloat = 10
    /// Alternating painted and unpainted lengths; nil or empty draws a solid line.
    public var lineDashPattern: [CGFloat]?
    /// The offset into the dash pattern at the stroke's start, in points.
    public var lineDashPhase: CGFloat = 0
    /// The stroked part of the path, as fractions of its length (docs/engine-model.md §10.1).
    public var strokeStart: CGFloat = 0
    /// The end of the stroked part, as a fraction of the path's length.
    public var strokeEnd: CGFloat = 1

    /// Core Animation's defaults: no path, black fill, no stroke, 1-point butt-capped mitred lines.
    public init() {}
}

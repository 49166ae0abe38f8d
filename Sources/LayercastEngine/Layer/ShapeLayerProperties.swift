import Foundation

/// The values a `CAShapeLayer` draws its path with, with Core Animation's defaults.
public struct ShapeLayerProperties: Equatable, Sendable {
    /// Stored as a snapshot: a `CGMutablePath` assigned here is copied (`CGPath.copy()`).
    public var path: CGPath? {
        didSet { if let path, path is CGMutablePath { self.path = path.frozen } }
    }
    /// nil draws no fill.
    public var fillColor: CGColor? = .black
    public var fillRule: CAShapeLayerFillRule = .nonZero
    /// nil draws no stroke.
    public var strokeColor: CGColor?
    public var lineWidth: CGFloat = 1
    public var lineCap: CAShapeLayerLineCap = .butt
    public var lineJoin: CAShapeLayerLineJoin = .miter
    public var miterLimit: CGFloat = 10
    /// Alternating painted and unpainted lengths; nil or empty draws a solid line.
    public var lineDashPattern: [CGFloat]?
    public var lineDashPhase: CGFloat = 0
    /// The stroked part of the path, as fractions of its length (docs/engine-model.md §10.1).
    public var strokeStart: CGFloat = 0
    public var strokeEnd: CGFloat = 1

    public init() {}
}

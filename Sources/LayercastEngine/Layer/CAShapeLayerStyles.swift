import Foundation

/// Which regions of a shape layer's path are filled.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Inside where the winding number is non-zero (the default).
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// Inside where the winding number is odd.
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")

    /// The Core Graphics rule it stands for.
    public var pathFillRule: CGPathFillRule { self == .evenOdd ? .evenOdd : .winding }
}

/// How a shape layer's stroke ends.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The stroke stops square at the end point (the default).
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    /// The stroke ends in a half circle beyond the end point.
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    /// The stroke ends square, half the line width beyond the end point.
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// How a shape layer's stroke joins two segments.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sharp corners, bevelled beyond `miterLimit` (the default).
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    /// Rounded corners.
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    /// Corners cut off square.
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}

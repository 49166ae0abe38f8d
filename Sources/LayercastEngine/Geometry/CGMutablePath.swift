import Foundation

/// A path under construction, spelled like Core Graphics' `CGMutablePath`; take an immutable
/// snapshot with `copy()`.
public final class CGMutablePath {
    private var path: CGPath

    /// An empty path.
    public init() {
        path = CGPath(elements: [])
    }

    init(path: CGPath) {
        self.path = path
    }

    /// The elements added so far, in drawing order.
    public var elements: [CGPathElement] { path.elements }
    /// True when no element has been added.
    public var isEmpty: Bool { path.isEmpty }
    /// The point where the next element would start; `.zero` for an empty path.
    public var currentPoint: CGPoint { path.currentPoint }
    /// The bounding box including control points; see `CGPath.boundingBox`.
    public var boundingBox: CGRect { path.boundingBox }
    /// The bounding box of the drawn path, control points excluded; see `CGPath.boundingBoxOfPath`.
    public var boundingBoxOfPath: CGRect { path.boundingBoxOfPath }

    /// Whether `point` is inside the filled area; see `CGPath.contains(_:using:transform:)`.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: AffineTransform = .identity) -> Bool {
        path.contains(point, using: rule, transform: transform)
    }

    /// An immutable snapshot of the path (Apple returns an optional; this never returns nil).
    public func copy() -> CGPath? {
        path
    }

    /// Starts a new subpath at `point` mapped through `transform`.
    public func move(to point: CGPoint, transform: AffineTransform = .identity) {
        path.append(CGPathElement.moveToPoint(point).applying(transform))
    }

    /// Adds a line from the current point to `point`; ignored without a current point, as in Core Graphics.
    public func addLine(to point: CGPoint, transform: AffineTransform = .identity) {
        path.append(CGPathElement.addLineToPoint(point).applying(transform))
    }

    /// Adds a quadratic Bézier from the current point to `end`; ignored without a current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: AffineTransform = .identity) {
        path.append(CGPathElement.addQuadCurveToPoint(control: control, end: end).applying(transform))
    }

    /// Adds a cubic Bézier from the current point to `end`; ignored without a current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: AffineTransform = .identity) {
        path.append(CGPathElement.addCurveToPoint(control1: control1, control2: control2, end: end)
            .applying(transform))
    }

    /// Closes the current subpath with a line to its start, which becomes the current point;
    /// ignored before the first move.
    public func closeSubpath() {
        path.append(.closeSubpath)
    }

    /// Adds a closed rectangle subpath: (minX, minY) → (maxX, minY) → (maxX, maxY) → (minX, maxY) → close.
    public func addRect(_ rect: CGRect, transform: AffineTransform = .identity) {
        path.appendRect(rect, transform: transform)
    }

    /// Adds a closed ellipse subpath inscribed in `rect`: four cubic arcs starting at (maxX, midY)
    /// and running through (midX, maxY) first.
    public func addEllipse(in rect: CGRect, transform: AffineTransform = .identity) {
        path.appendEllipse(in: rect, transform: transform)
    }
}

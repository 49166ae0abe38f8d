import Foundation

/// A path under construction, spelled like Core Graphics' `CGMutablePath` and, as there, a subclass of
/// `CGPath`: it can be assigned wherever a `CGPath` is taken (`shapeLayer.path = mutablePath`), and the
/// property stores a snapshot, so adding to it afterwards does not change what was assigned.
/// `copy()` takes such a snapshot explicitly.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    /// An empty path.
    public init() {
        super.init(data: PathData())
    }

    override init(data: PathData) {
        super.init(data: data)
    }

    /// Starts a new subpath at `point` mapped through `transform`.
    public func move(to point: CGPoint, transform: AffineTransform = .identity) {
        data.append(CGPathElement.moveToPoint(point).applying(transform))
    }

    /// Adds a line from the current point to `point`; ignored without a current point, as in Core Graphics.
    public func addLine(to point: CGPoint, transform: AffineTransform = .identity) {
        data.append(CGPathElement.addLineToPoint(point).applying(transform))
    }

    /// Adds a quadratic Bézier from the current point to `end`; ignored without a current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: AffineTransform = .identity) {
        data.append(CGPathElement.addQuadCurveToPoint(control: control, end: end).applying(transform))
    }

    /// Adds a cubic Bézier from the current point to `end`; ignored without a current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: AffineTransform = .identity) {
        data.append(CGPathElement.addCurveToPoint(control1: control1, control2: control2, end: end)
            .applying(transform))
    }

    /// Closes the current subpath with a line to its start, which becomes the current point;
    /// ignored before the first move.
    public func closeSubpath() {
        data.append(.closeSubpath)
    }

    /// Adds a closed rectangle subpath: (minX, minY) → (maxX, minY) → (maxX, maxY) → (minX, maxY) → close.
    public func addRect(_ rect: CGRect, transform: AffineTransform = .identity) {
        data.appendRect(rect, transform: transform)
    }

    /// Adds a closed ellipse subpath inscribed in `rect`: four cubic arcs starting at (maxX, midY)
    /// and running through (midX, maxY) first.
    public func addEllipse(in rect: CGRect, transform: AffineTransform = .identity) {
        data.appendEllipse(in: rect, transform: transform)
    }

    /// Adds a closed rounded rectangle; see `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: AffineTransform = .identity) {
        data.appendRoundedRect(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform)
    }

    /// Adds a circular arc with Core Graphics' angle rules (`clockwise` false: increasing angle), after a
    /// line from the current point to its start (a move on an empty path).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: AffineTransform = .identity) {
        data.appendArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                       clockwise: clockwise, transform: transform)
    }

    /// Adds an arc of `delta` radians from `startAngle` (positive: increasing angle), as `addRelativeArc`.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: AffineTransform = .identity) {
        data.appendArc(center: center, radius: radius, startAngle: startAngle, sweep: delta, transform: transform)
    }

    /// Adds the arc of `radius` tangent to current point → `tangent1End` → `tangent2End`, after a line to
    /// its first tangent point (`CGPathAddArcToPoint`); ignored without a current point.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: AffineTransform = .identity) {
        guard let current = data.current else { return }
        let inverse = transform.inverted() ?? .identity
        data.appendArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius,
                       from: inverse.transform(current), transform: transform)
    }

    /// Adds a move to the first point and lines through the rest, as `addLines(between:transform:)`.
    public func addLines(between points: [CGPoint], transform: AffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for point in points.dropFirst() { addLine(to: point, transform: transform) }
    }

    /// Adds each rectangle as a closed subpath.
    public func addRects(_ rects: [CGRect], transform: AffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// Appends another path's elements mapped through `transform`.
    public func addPath(_ other: CGPath, transform: AffineTransform = .identity) {
        for element in other.elements { data.append(element.applying(transform)) }
    }
}

import Foundation

/// A path builder with UIKit's `UIBezierPath` spelling, so ported drawing code keeps its calls and
/// hands `cgPath` to a layer. Only the path: the stroke and fill attributes (`lineWidth`, `stroke()`,
/// `fill()`…) belong to a drawing context, which scenes do not have; set them on the `CAShapeLayer`.
///
/// `clockwise` has UIKit's meaning, the opposite of Core Graphics' flag: in the y-down space of a
/// layer, `clockwise: true` turns clockwise on screen, the angle *increasing* from `startAngle`
/// (docs/engine-model.md §10.1). So an arc from 0 to π/2 with `clockwise: true` runs from
/// (cx + r, cy) through the bottom-right quarter to (cx, cy + r), as on iOS.
open class UIBezierPath {
    /// The path built so far.
    private var path = CGMutablePath()

    /// An empty path.
    public init() {}

    /// A closed rectangle: a move to (minX, minY), then clockwise on screen, as UIKit's `init(rect:)`.
    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    /// A closed ellipse inscribed in `rect`, starting at (maxX, midY) and running clockwise on screen
    /// (four cubic quarters, as `CGPath(ellipseIn:)`), as UIKit's `init(ovalIn:)`.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// A closed rectangle with circular corners of `cornerRadius`, clamped to half the shorter side
    /// as UIKit's `init(roundedRect:cornerRadius:)` clamps it. UIKit draws "continuous" corners that
    /// ease into the edges; these are plain quarter circles, as `CGPath(roundedRect:…)`.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let r = rect.standardized
        let radius = max(0, min(cornerRadius, min(r.width, r.height) / 2))
        path.addRoundedRect(in: r, cornerWidth: radius, cornerHeight: radius)
    }

    /// An arc of a circle with UIKit's `clockwise` (true: the angle increases, clockwise on screen),
    /// as UIKit's `init(arcCenter:radius:startAngle:endAngle:clockwise:)`.
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                            endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// A path with the elements of `cgPath`, as UIKit's `init(cgPath:)`.
    public convenience init(cgPath: CGPath) {
        self.init()
        path.addPath(cgPath)
    }

    /// An immutable snapshot of the path, to assign to `CAShapeLayer.path`; setting it replaces the
    /// path's elements, as UIKit's `cgPath`.
    public var cgPath: CGPath {
        get { path.frozen }
        set { path = newValue.mutableCopy()! }
    }

    /// The point where the next element would start; `.zero` for an empty path.
    public var currentPoint: CGPoint { path.currentPoint }

    /// True when the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// The rectangle enclosing the path's points, control points included (`CGPath.boundingBox`),
    /// as UIKit's `bounds`.
    public var bounds: CGRect { path.boundingBox }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) {
        path.move(to: point)
    }

    /// Adds a line from the current point to `point`.
    public func addLine(to point: CGPoint) {
        path.addLine(to: point)
    }

    /// Adds an arc with UIKit's `clockwise` (true: the angle increases), after a line from the
    /// current point to its start; Core Graphics' `addArc` with the flag negated.
    public func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                    clockwise: !clockwise)
    }

    /// Adds a cubic Bézier from the current point to `endPoint`.
    public func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }

    /// Adds a quadratic Bézier from the current point to `endPoint`.
    public func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: endPoint, control: controlPoint)
    }

    /// Closes the current subpath with a line back to its start.
    public func close() {
        path.closeSubpath()
    }

    /// Appends the elements of `bezierPath`, as UIKit's `append(_:)`.
    public func append(_ bezierPath: UIBezierPath) {
        path.addPath(bezierPath.cgPath)
    }

    /// Removes every element, as UIKit's `removeAllPoints()`.
    public func removeAllPoints() {
        path = CGMutablePath()
    }

    /// Whether `point` is inside the area the path fills (non-zero winding), as UIKit's `contains(_:)`.
    public func contains(_ point: CGPoint) -> Bool {
        path.contains(point)
    }
}

import Foundation

/// One drawing command of a path, named after Core Graphics' `CGPathElementType` cases; points are in
/// the order of Apple's `CGPathElement.points` (control points first, end point last).
public enum CGPathElement: Hashable, Sendable {
    /// Starts a new subpath at the point.
    case moveToPoint(CGPoint)
    /// A straight line from the current point to the point.
    case addLineToPoint(CGPoint)
    /// A quadratic Bézier from the current point to `end`.
    case addQuadCurveToPoint(control: CGPoint, end: CGPoint)
    /// A cubic Bézier from the current point to `end`.
    case addCurveToPoint(control1: CGPoint, control2: CGPoint, end: CGPoint)
    /// A straight line back to the subpath's start point, which becomes the current point.
    case closeSubpath

    /// The same element with every point mapped through `transform`.
    func applying(_ transform: AffineTransform) -> CGPathElement {
        switch self {
        case let .moveToPoint(point): return .moveToPoint(transform.transform(point))
        case let .addLineToPoint(point): return .addLineToPoint(transform.transform(point))
        case let .addQuadCurveToPoint(control, end):
            return .addQuadCurveToPoint(control: transform.transform(control), end: transform.transform(end))
        case let .addCurveToPoint(control1, control2, end):
            return .addCurveToPoint(control1: transform.transform(control1), control2: transform.transform(control2),
                                    end: transform.transform(end))
        case .closeSubpath: return .closeSubpath
        }
    }

    /// Every point the element stores, control points included.
    var storedPoints: [CGPoint] {
        switch self {
        case let .moveToPoint(point), let .addLineToPoint(point): return [point]
        case let .addQuadCurveToPoint(control, end): return [control, end]
        case let .addCurveToPoint(control1, control2, end): return [control1, control2, end]
        case .closeSubpath: return []
        }
    }
}

/// How `contains(_:using:transform:)` decides which regions are inside, as in Core Graphics.
public enum CGPathFillRule: Sendable {
    /// Inside where the winding number is non-zero.
    case winding
    /// Inside where the winding number is odd.
    case evenOdd
}

/// An immutable graphics path: a list of `CGPathElement`s, built with `CGMutablePath` (its subclass, as
/// in Core Graphics) or the rectangle/ellipse initializers. Foundation on Linux has no Core Graphics, so
/// this mirrors its API. A `CGPath` that is not a `CGMutablePath` never changes after it is made, so it
/// is shared like a value; every property that stores a path (`CAShapeLayer.path`, `shadowPath`,
/// `CAKeyframeAnimation.path`, an animation's `fromValue`…) stores `copy()`, a snapshot, when handed a
/// `CGMutablePath` (docs/engine-model.md §10.1).
public class CGPath: Hashable, @unchecked Sendable {
    /// The elements and the building state; only `CGMutablePath` changes it after `init`.
    var data: PathData

    init(data: PathData) {
        self.data = data
    }

    /// A path made of `elements`, appended with Core Graphics' rules: lines, curves and closes
    /// before any `moveToPoint` have no current point and are dropped.
    public convenience init(elements: [CGPathElement]) {
        self.init(data: PathData(elements: elements))
    }

    /// A closed rectangle path, laid out like `CGMutablePath.addRect(_:transform:)`.
    public convenience init(rect: CGRect, transform: AffineTransform? = nil) {
        var data = PathData()
        data.appendRect(rect, transform: transform ?? .identity)
        self.init(data: data)
    }

    /// A closed ellipse path inscribed in `rect`, laid out like `CGMutablePath.addEllipse(in:transform:)`.
    public convenience init(ellipseIn rect: CGRect, transform: AffineTransform? = nil) {
        var data = PathData()
        data.appendEllipse(in: rect, transform: transform ?? .identity)
        self.init(data: data)
    }

    /// The path's elements, in drawing order; the first one is always a `moveToPoint`.
    public var elements: [CGPathElement] { data.elements }

    /// True when the path has no elements.
    public var isEmpty: Bool { data.elements.isEmpty }

    /// The point where the next element would start; `.zero` for an empty path, as in Core Graphics.
    public var currentPoint: CGPoint { data.current ?? .zero }

    /// Where the next element starts, or nil before the first `moveToPoint`.
    var current: CGPoint? { data.current }

    /// The smallest rectangle enclosing every point of the path including Bézier control points
    /// (Apple's `boundingBox`); `CGRect.null` for an empty path.
    public var boundingBox: CGRect { data.boundingBox }

    /// The smallest rectangle enclosing the drawn path itself, control points excluded (Apple's
    /// `boundingBoxOfPath`); `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect { data.boundingBoxOfPath }

    /// Whether `point` lies in the area filled by the path after the path is mapped through `transform`
    /// (Core Graphics' meaning); open subpaths are implicitly closed, curves flattened to within 0.0025 points.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: AffineTransform = .identity) -> Bool {
        data.contains(point, using: rule, transform: transform)
    }

    /// An immutable snapshot (Apple's `copy()`; never nil): the path itself when it is already
    /// immutable, a new `CGPath` with the current elements when it is a `CGMutablePath`.
    public func copy() -> CGPath? {
        frozen
    }

    /// `copy()` without the optional: what a property storing a path keeps.
    var frozen: CGPath {
        self is CGMutablePath ? CGPath(data: data) : self
    }

    /// A mutable copy of the path (Apple returns an optional; this never returns nil).
    public func mutableCopy() -> CGMutablePath? {
        CGMutablePath(data: data)
    }

    /// Two paths are equal when their elements are equal, whichever class they are.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs.data.elements == rhs.data.elements
    }

    /// Hashes the elements, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data.elements)
    }

    /// The elements as geometry; see `PathData.pieces`.
    var pieces: [PathPiece] { data.pieces }

    /// Whether both paths have the same elements in the same order, whatever their points.
    func hasSameStructure(as other: CGPath) -> Bool { data.hasSameStructure(as: other.data) }

    /// The same structure with the stored points replaced by `c` (x, y pairs in `storedPoints` order).
    func withStoredPoints(_ c: [CGFloat]) -> CGPath { CGPath(data: data.withStoredPoints(c)) }
}

/// A path's elements and the state needed to append to it, as a value: the storage of `CGPath`.
struct PathData: Hashable, Sendable {
    /// The path's elements, in drawing order; the first one is always a `moveToPoint`.
    private(set) var elements: [CGPathElement] = []
    /// The start of the open subpath, or nil before the first `moveToPoint`.
    private var subpathStart: CGPoint?
    /// Where the next element starts, or nil before the first `moveToPoint`.
    private(set) var current: CGPoint?

    /// An empty path.
    init() {}

    /// A path made of `elements`, appended with Core Graphics' rules.
    init(elements: [CGPathElement]) {
        for element in elements { append(element) }
    }

    /// See `CGPath.boundingBox`.
    var boundingBox: CGRect {
        Self.rectEnclosing(elements.flatMap(\.storedPoints))
    }

    /// See `CGPath.boundingBoxOfPath`.
    var boundingBoxOfPath: CGRect {
        Self.rectEnclosing(pieces.flatMap { piece -> [CGPoint] in
            switch piece {
            case let .move(point): return [point]
            case let .draw(curve): return curve.extremePoints
            }
        })
    }

    /// See `CGPath.contains(_:using:transform:)`.
    func contains(_ point: CGPoint, using rule: CGPathFillRule, transform: AffineTransform) -> Bool {
        let pieces = transform == .identity
            ? self.pieces
            : PathData(elements: elements.map { $0.applying(transform) }).pieces
        var winding = 0
        func addEdge(_ a: CGPoint, _ b: CGPoint) {
            let side = (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y)
            if a.y <= point.y {
                if b.y > point.y && side > 0 { winding += 1 }
            } else if b.y <= point.y && side < 0 {
                winding -= 1
            }
        }
        var runStart = CGPoint.zero
        var last = CGPoint.zero
        for piece in pieces {
            switch piece {
            case let .move(target):
                addEdge(last, runStart)
                runStart = target
                last = target
            case let .draw(curve):
                for next in curve.flattened(tolerance: PathCurve.flatteningTolerance).dropFirst() {
                    addEdge(last, next)
                    last = next
                }
            }
        }
        addEdge(last, runStart)
        switch rule {
        case .winding: return winding != 0
        case .evenOdd: return winding % 2 != 0
        }
    }

    /// Two values are equal when their elements are equal.
    static func == (lhs: PathData, rhs: PathData) -> Bool {
        lhs.elements == rhs.elements
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(elements)
    }

    // MARK: Building

    /// Appends `element`, ignoring it when it needs a current point and there is none.
    mutating func append(_ element: CGPathElement) {
        switch element {
        case let .moveToPoint(point):
            subpathStart = point
            current = point
        case let .addLineToPoint(point), let .addQuadCurveToPoint(_, point), let .addCurveToPoint(_, _, point):
            guard current != nil else { return }
            current = point
        case .closeSubpath:
            guard let start = subpathStart else { return }
            current = start
        }
        elements.append(element)
    }

    /// Appends a closed rectangle: a move to (minX, minY), lines to (maxX, minY), (maxX, maxY),
    /// (minX, maxY), then a close, as `CGPathAddRect` does.
    mutating func appendRect(_ rect: CGRect, transform: AffineTransform) {
        let rect = rect.standardized
        append(CGPathElement.moveToPoint(CGPoint(x: rect.minX, y: rect.minY)).applying(transform))
        for corner in [CGPoint(x: rect.maxX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.maxY),
                       CGPoint(x: rect.minX, y: rect.maxY)] {
            append(CGPathElement.addLineToPoint(corner).applying(transform))
        }
        append(.closeSubpath)
    }

    /// Appends a closed ellipse inscribed in `rect` as `CGPathAddEllipseInRect` does: a move to
    /// (maxX, midY), four cubic quarter arcs through (midX, maxY), (minX, midY), (midX, minY), then a close.
    mutating func appendEllipse(in rect: CGRect, transform: AffineTransform) {
        let rect = rect.standardized
        // The standard four-arc approximation: control points at 4/3·(√2 − 1) of each radius.
        let kappa: CGFloat = 0.5522847498307936
        let rx = rect.width / 2, ry = rect.height / 2
        let cx = rect.midX, cy = rect.midY
        let ox = rx * kappa, oy = ry * kappa
        append(CGPathElement.moveToPoint(CGPoint(x: cx + rx, y: cy)).applying(transform))
        let arcs: [(CGPoint, CGPoint, CGPoint)] = [
            (CGPoint(x: cx + rx, y: cy + oy), CGPoint(x: cx + ox, y: cy + ry), CGPoint(x: cx, y: cy + ry)),
            (CGPoint(x: cx - ox, y: cy + ry), CGPoint(x: cx - rx, y: cy + oy), CGPoint(x: cx - rx, y: cy)),
            (CGPoint(x: cx - rx, y: cy - oy), CGPoint(x: cx - ox, y: cy - ry), CGPoint(x: cx, y: cy - ry)),
            (CGPoint(x: cx + ox, y: cy - ry), CGPoint(x: cx + rx, y: cy - oy), CGPoint(x: cx + rx, y: cy)),
        ]
        for (control1, control2, end) in arcs {
            append(CGPathElement.addCurveToPoint(control1: control1, control2: control2, end: end).applying(transform))
        }
        append(.closeSubpath)
    }

    /// Whether both paths have the same elements in the same order, whatever their points.
    func hasSameStructure(as other: PathData) -> Bool {
        elements.count == other.elements.count && zip(elements, other.elements).allSatisfy { a, b in
            switch (a, b) {
            case (.moveToPoint, .moveToPoint), (.addLineToPoint, .addLineToPoint),
                 (.addQuadCurveToPoint, .addQuadCurveToPoint), (.addCurveToPoint, .addCurveToPoint),
                 (.closeSubpath, .closeSubpath): true
            default: false
            }
        }
    }

    /// The same structure with the stored points replaced by `c` (x, y pairs in `storedPoints` order).
    func withStoredPoints(_ c: [CGFloat]) -> PathData {
        var i = 0
        func next() -> CGPoint { defer { i += 2 }; return CGPoint(x: c[i], y: c[i + 1]) }
        return PathData(elements: elements.map { element in
            switch element {
            case .moveToPoint: return .moveToPoint(next())
            case .addLineToPoint: return .addLineToPoint(next())
            case .addQuadCurveToPoint: let control = next(); return .addQuadCurveToPoint(control: control, end: next())
            case .addCurveToPoint:
                let c1 = next(), c2 = next()
                return .addCurveToPoint(control1: c1, control2: c2, end: next())
            case .closeSubpath: return .closeSubpath
            }
        })
    }

    // MARK: Geometry

    /// The elements as geometry, one piece per element: moves, and drawn curves starting at the
    /// previous element's end (a close is a line back to the subpath's start).
    var pieces: [PathPiece] {
        var result: [PathPiece] = []
        result.reserveCapacity(elements.count)
        var start = CGPoint.zero
        var last = CGPoint.zero
        for element in elements {
            switch element {
            case let .moveToPoint(point):
                result.append(.move(point))
                start = point
                last = point
            case let .addLineToPoint(point):
                result.append(.draw(.line(last, point)))
                last = point
            case let .addQuadCurveToPoint(control, end):
                result.append(.draw(.quad(last, control, end)))
                last = end
            case let .addCurveToPoint(control1, control2, end):
                result.append(.draw(.cubic(last, control1, control2, end)))
                last = end
            case .closeSubpath:
                result.append(.draw(.line(last, start)))
                last = start
            }
        }
        return result
    }

    private static func rectEnclosing(_ points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for point in points.dropFirst() {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

import Foundation

/// One drawing command of a path, named after Core Graphics' `CGPathElementType` cases; points are in
/// the order of Apple's `CGPathElement.points` (control points first, end point last).
public enum CGPathElement: Equatable, Sendable {
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
    fileprivate func applying(_ transform: AffineTransform) -> CGPathElement {
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
    fileprivate var storedPoints: [CGPoint] {
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

/// An immutable graphics path: a list of `CGPathElement`s, built with `CGMutablePath` or the
/// rectangle/ellipse initializers. Foundation on Linux has no Core Graphics, so this mirrors its API.
public struct CGPath: Equatable, Sendable {
    /// The path's elements, in drawing order; the first one is always a `moveToPoint`.
    public private(set) var elements: [CGPathElement] = []
    /// The start of the open subpath, or nil before the first `moveToPoint`.
    private var subpathStart: CGPoint?
    /// Where the next element starts, or nil before the first `moveToPoint`.
    private var current: CGPoint?

    /// A path made of `elements`, appended with Core Graphics' rules: lines, curves and closes
    /// before any `moveToPoint` have no current point and are dropped.
    public init(elements: [CGPathElement]) {
        for element in elements { append(element) }
    }

    /// A closed rectangle path, laid out like `CGMutablePath.addRect(_:transform:)`.
    public init(rect: CGRect, transform: AffineTransform? = nil) {
        appendRect(rect, transform: transform ?? .identity)
    }

    /// A closed ellipse path inscribed in `rect`, laid out like `CGMutablePath.addEllipse(in:transform:)`.
    public init(ellipseIn rect: CGRect, transform: AffineTransform? = nil) {
        appendEllipse(in: rect, transform: transform ?? .identity)
    }

    /// True when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point where the next element would start; `.zero` for an empty path, as in Core Graphics.
    public var currentPoint: CGPoint { current ?? .zero }

    /// The smallest rectangle enclosing every point of the path including Bézier control points
    /// (Apple's `boundingBox`); `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        Self.rectEnclosing(elements.flatMap(\.storedPoints))
    }

    /// The smallest rectangle enclosing the drawn path itself, control points excluded (Apple's
    /// `boundingBoxOfPath`); `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        Self.rectEnclosing(pieces.flatMap { piece -> [CGPoint] in
            switch piece {
            case let .move(point): return [point]
            case let .draw(curve): return curve.extremePoints
            }
        })
    }

    /// Whether `point` lies in the area filled by the path after the path is mapped through `transform`
    /// (Core Graphics' meaning); open subpaths are implicitly closed, curves flattened to within 0.0025 points.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: AffineTransform = .identity) -> Bool {
        let pieces = transform == .identity
            ? self.pieces
            : CGPath(elements: elements.map { $0.applying(transform) }).pieces
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

    /// A mutable copy of the path (Apple returns an optional; this never returns nil).
    public func mutableCopy() -> CGMutablePath? {
        CGMutablePath(path: self)
    }

    /// Two paths are equal when their elements are equal.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs.elements == rhs.elements
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

    // MARK: Geometry

    /// The elements as geometry, one piece per element: moves, and drawn curves starting at the
    /// previous element's end (a close is a line back to the subpath's start).
    fileprivate var pieces: [PathPiece] {
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

/// A path under construction, spelled like Core Graphics' `CGMutablePath`; take an immutable
/// snapshot with `copy()`.
public final class CGMutablePath {
    private var path: CGPath

    /// An empty path.
    public init() {
        path = CGPath(elements: [])
    }

    fileprivate init(path: CGPath) {
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

/// Walks a path by arc length or by element, for `CAKeyframeAnimation.path`.
public struct PathSampler: Sendable {
    /// A straight piece of the flattened path.
    private struct Segment: Sendable {
        var start: CGPoint
        var end: CGPoint
        /// Path length before this segment.
        var offset: CGFloat
        var length: CGFloat
        var angle: CGFloat
    }

    /// The end point of every element, in order; a close contributes its subpath's start point.
    /// These are the keyframe values Core Animation derives from a path.
    public let keyPoints: [CGPoint]
    /// The length of all drawn elements together, in points (moves add nothing).
    public let totalLength: CGFloat
    private let segments: [Segment]
    /// `pieces[i + 1]` is the element ending at `keyPoints[i + 1]`.
    private let pieces: [PathPiece]
    /// For element index i: the exit angle of the nearest earlier non-degenerate drawn element, or 0.
    private let fallbackAngles: [CGFloat]

    /// Flattens `path` into line segments deviating less than 0.0025 points from its curves.
    public init(_ path: CGPath) {
        let pieces = path.pieces
        var segments: [Segment] = []
        var offset: CGFloat = 0
        var fallbackAngles: [CGFloat] = []
        var lastAngle: CGFloat = 0
        var keyPoints: [CGPoint] = []
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case let .move(point):
                keyPoints.append(point)
            case let .draw(curve):
                keyPoints.append(curve.end)
                let points = curve.flattened(tolerance: PathCurve.flatteningTolerance)
                for (start, end) in zip(points, points.dropFirst()) {
                    let length = hypot(end.x - start.x, end.y - start.y)
                    guard length > 0 else { continue }
                    segments.append(Segment(start: start, end: end, offset: offset, length: length,
                                            angle: atan2(end.y - start.y, end.x - start.x)))
                    offset += length
                }
            }
            guard index > 0 else { continue }
            fallbackAngles.append(lastAngle)
            if case let .draw(curve) = piece, let angle = curve.tangentAngle(at: 1) {
                lastAngle = angle
            }
        }
        self.keyPoints = keyPoints
        self.totalLength = offset
        self.segments = segments
        self.pieces = pieces
        self.fallbackAngles = fallbackAngles
    }

    /// The point `distance` points along the path (clamped to 0…`totalLength`) and the direction of
    /// travel there, atan2(dy, dx). At a joint the segment ending there wins; a path without length
    /// yields its first point and angle 0.
    public func point(atDistance distance: CGFloat) -> (point: CGPoint, tangentAngle: CGFloat) {
        guard !segments.isEmpty else { return (keyPoints.first ?? .zero, 0) }
        let distance = min(max(distance, 0), totalLength)
        // The first segment whose end reaches `distance`.
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].offset + segments[middle].length >= distance { high = middle } else { low = middle + 1 }
        }
        let segment = segments[low]
        let fraction = min(max((distance - segment.offset) / segment.length, 0), 1)
        return (PathCurve.lerp(segment.start, segment.end, fraction), segment.angle)
    }

    /// The position within element `index` — the one running from `keyPoints[index]` to
    /// `keyPoints[index + 1]` — at curve parameter `fraction`, and the direction of travel there.
    ///
    /// Curves are evaluated at t = `fraction`, lines interpolated; a move jumps straight to its point.
    /// `index` is clamped to the valid range and `fraction` to 0…1; a degenerate element reuses the
    /// previous element's exit angle (or 0).
    public func point(atElement index: Int, fraction: CGFloat) -> (point: CGPoint, tangentAngle: CGFloat) {
        guard pieces.count > 1 else { return (keyPoints.first ?? .zero, 0) }
        let index = min(max(index, 0), pieces.count - 2)
        let fraction = min(max(fraction, 0), 1)
        switch pieces[index + 1] {
        case let .move(point):
            return (point, fallbackAngles[index])
        case let .draw(curve):
            return (curve.point(at: fraction), curve.tangentAngle(at: fraction) ?? fallbackAngles[index])
        }
    }
}

/// One element of a path as geometry.
private enum PathPiece: Sendable {
    case move(CGPoint)
    case draw(PathCurve)
}

/// A drawn element with its start point: a line or a quadratic or cubic Bézier.
private enum PathCurve: Sendable {
    case line(CGPoint, CGPoint)
    case quad(CGPoint, CGPoint, CGPoint)
    case cubic(CGPoint, CGPoint, CGPoint, CGPoint)

    /// Maximum distance between a curve and its flattened polyline, in points.
    static let flatteningTolerance: CGFloat = 0.0025

    static func lerp(_ a: CGPoint, _ b: CGPoint, _ t: CGFloat) -> CGPoint {
        CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    var end: CGPoint {
        switch self {
        case let .line(_, end), let .quad(_, _, end), let .cubic(_, _, _, end): return end
        }
    }

    func point(at t: CGFloat) -> CGPoint {
        let u = 1 - t
        switch self {
        case let .line(p0, p1):
            return Self.lerp(p0, p1, t)
        case let .quad(p0, p1, p2):
            return CGPoint(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                           y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
        case let .cubic(p0, p1, p2, p3):
            let (b0, b1, b2, b3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            return CGPoint(x: b0 * p0.x + b1 * p1.x + b2 * p2.x + b3 * p3.x,
                           y: b0 * p0.y + b1 * p1.y + b2 * p2.y + b3 * p3.y)
        }
    }

    func derivative(at t: CGFloat) -> CGPoint {
        let u = 1 - t
        switch self {
        case let .line(p0, p1):
            return CGPoint(x: p1.x - p0.x, y: p1.y - p0.y)
        case let .quad(p0, p1, p2):
            return CGPoint(x: 2 * (u * (p1.x - p0.x) + t * (p2.x - p1.x)),
                           y: 2 * (u * (p1.y - p0.y) + t * (p2.y - p1.y)))
        case let .cubic(p0, p1, p2, p3):
            return CGPoint(x: 3 * (u * u * (p1.x - p0.x) + 2 * u * t * (p2.x - p1.x) + t * t * (p3.x - p2.x)),
                           y: 3 * (u * u * (p1.y - p0.y) + 2 * u * t * (p2.y - p1.y) + t * t * (p3.y - p2.y)))
        }
    }

    /// The direction of travel at `t`, atan2(dy, dx); where the derivative vanishes (a control point
    /// on an end point, or a cusp) the direction of a short chord around `t`; nil if the curve is a point.
    func tangentAngle(at t: CGFloat) -> CGFloat? {
        let d = derivative(at: t)
        if d.x * d.x + d.y * d.y > 1e-12 { return atan2(d.y, d.x) }
        let h: CGFloat = 1e-4
        let a = point(at: max(t - h, 0)), b = point(at: min(t + h, 1))
        let chord = CGPoint(x: b.x - a.x, y: b.y - a.y)
        guard chord.x * chord.x + chord.y * chord.y > 0 else { return nil }
        return atan2(chord.y, chord.x)
    }

    /// Points along the curve at evenly spaced parameters, from start to end, such that the polyline
    /// stays within `tolerance` of the curve (bound: h²/8 · max|B''| for parameter step h).
    func flattened(tolerance: CGFloat) -> [CGPoint] {
        let secondDifference: CGFloat
        switch self {
        case let .line(p0, p1):
            return [p0, p1]
        case let .quad(p0, p1, p2):
            // B'' = 2(P0 − 2P1 + P2) ⇒ error ≤ |P0 − 2P1 + P2| / (4n²).
            secondDifference = hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y) / 4
        case let .cubic(p0, p1, p2, p3):
            // |B''| ≤ 6·max|Pi − 2Pi+1 + Pi+2| ⇒ error ≤ 0.75·max / n².
            secondDifference = 0.75 * max(hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y),
                                          hypot(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y))
        }
        let needed = (secondDifference / tolerance).squareRoot().rounded(.up)
        let count = needed.isFinite ? Int(min(max(needed, 1), 65_536)) : 1
        return (0...count).map { point(at: CGFloat($0) / CGFloat(count)) }
    }

    /// The end points plus every interior point where x or y has a local extreme.
    var extremePoints: [CGPoint] {
        var parameters: [CGFloat] = [0, 1]
        switch self {
        case .line:
            break
        case let .quad(p0, p1, p2):
            // B'(t) = 0 per axis: t = (P0 − P1) / (P0 − 2P1 + P2).
            for (a, b, c) in [(p0.x, p1.x, p2.x), (p0.y, p1.y, p2.y)] where a - 2 * b + c != 0 {
                parameters.append((a - b) / (a - 2 * b + c))
            }
        case let .cubic(p0, p1, p2, p3):
            // B'(t)/3 = A·t² + B·t + C per axis, from the Bernstein form of the derivative.
            for (a, b, c, d) in [(p0.x, p1.x, p2.x, p3.x), (p0.y, p1.y, p2.y, p3.y)] {
                let qa = -a + 3 * b - 3 * c + d
                let qb = 2 * (a - 2 * b + c)
                let qc = b - a
                if abs(qa) < 1e-12 {
                    if qb != 0 { parameters.append(-qc / qb) }
                    continue
                }
                let discriminant = qb * qb - 4 * qa * qc
                guard discriminant >= 0 else { continue }
                let root = discriminant.squareRoot()
                parameters.append((-qb + root) / (2 * qa))
                parameters.append((-qb - root) / (2 * qa))
            }
        }
        return parameters.filter { (0...1).contains($0) }.map { point(at: $0) }
    }
}

import Foundation

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
enum PathPiece: Sendable {
    case move(CGPoint)
    case draw(PathCurve)
}

/// A drawn element with its start point: a line or a quadratic or cubic Bézier.
enum PathCurve: Sendable {
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

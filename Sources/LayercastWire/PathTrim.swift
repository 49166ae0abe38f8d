import Foundation
import LayercastEngine

/// `strokeStart`/`strokeEnd` on the server (protocol.md, "Shapes"): the part of a path between two
/// fractions of its length, as Core Animation strokes it ("interpreted linearly along the path
/// length", engine-model.md §10.1). Curves are measured by 32 chords each and cut by de Casteljau
/// at the parameter where the chord length reaches the cut. A subpath kept whole keeps its close;
/// one cut at its start has the close's line instead.
enum PathTrim {
    /// The trimmed elements and the length from the start of the subpath holding the start cut to
    /// that cut (what a dash pattern has run through before the kept part begins). Empty when
    /// `start ≥ end` or the path has no length.
    static func trim(_ elements: [CGPathElement], start: CGFloat, end: CGFloat) -> (elements: [CGPathElement], dashOffset: CGFloat) {
        let start = min(max(start, 0), 1), end = min(max(end, 0), 1)
        guard start < end else { return ([], 0) }
        if start == 0 && end == 1 { return (elements, 0) }
        let pieces = Self.pieces(elements)
        let total = pieces.reduce(0) { $0 + $1.length }
        guard total > 0, total.isFinite else { return ([], 0) }
        let from = start * total, to = end * total
        var out: [CGPathElement] = []
        var offset: CGFloat = 0
        var subpathRun: CGFloat = 0
        var dashOffset: CGFloat = 0
        var open = false
        /// Whether the kept part of the current subpath starts at the subpath's start.
        var fromSubpathStart = false
        for piece in pieces {
            if piece.isMove { subpathRun = 0; open = false; continue }
            let a = offset, b = offset + piece.length
            defer { offset = b; subpathRun += piece.length }
            guard b > from, a < to else { continue }
            let t0 = a < from ? piece.parameter(atLength: from - a) : 0
            let t1 = b > to ? piece.parameter(atLength: to - a) : 1
            let cut = piece.curve.segment(t0, t1)
            if !open {
                fromSubpathStart = subpathRun == 0 && t0 == 0
                out.append(.moveToPoint(cut.first!))
                if out.count == 1 { dashOffset = subpathRun + (a < from ? from - a : 0) }
                open = true
            }
            if piece.isClose && fromSubpathStart && t1 == 1 {
                out.append(.closeSubpath)
            } else {
                out.append(cut.element)
            }
        }
        return (out, dashOffset)
    }

    /// One drawn element with its length, or a move.
    private struct Piece {
        var curve: Bezier
        var isMove = false
        var isClose = false
        /// Cumulative chord lengths at t = i/32.
        var table: [CGFloat] = []
        var length: CGFloat { table.last ?? 0 }

        func parameter(atLength s: CGFloat) -> CGFloat {
            var i = 1
            while i < table.count - 1, table[i] < s { i += 1 }
            let span = table[i] - table[i - 1]
            let u = span > 0 ? (s - table[i - 1]) / span : 0
            return (CGFloat(i - 1) + min(max(u, 0), 1)) / CGFloat(table.count - 1)
        }
    }

    private static let chords = 32

    private static func pieces(_ elements: [CGPathElement]) -> [Piece] {
        var pieces: [Piece] = []
        var current = CGPoint.zero, subpathStart = CGPoint.zero
        func add(_ curve: Bezier, close: Bool = false) {
            var table: [CGFloat] = [0]
            var last = curve.point(0)
            let n = curve.points.count == 2 ? 1 : chords
            for i in 1...n {
                let p = curve.point(CGFloat(i) / CGFloat(n))
                table.append(table[i - 1] + hypot(p.x - last.x, p.y - last.y))
                last = p
            }
            if n == 1 { table = (0...chords).map { CGFloat($0) / CGFloat(chords) * table[1] } }
            pieces.append(Piece(curve: curve, isClose: close, table: table))
        }
        for element in elements {
            switch element {
            case .moveToPoint(let p):
                pieces.append(Piece(curve: Bezier(points: [p]), isMove: true))
                (current, subpathStart) = (p, p)
            case .addLineToPoint(let p): add(Bezier(points: [current, p])); current = p
            case .addQuadCurveToPoint(let c, let p): add(Bezier(points: [current, c, p])); current = p
            case .addCurveToPoint(let c1, let c2, let p): add(Bezier(points: [current, c1, c2, p])); current = p
            case .closeSubpath: add(Bezier(points: [current, subpathStart]), close: true); current = subpathStart
            }
        }
        return pieces
    }
}

/// A line, quadratic or cubic Bézier by its control points.
private struct Bezier {
    var points: [CGPoint]

    func point(_ t: CGFloat) -> CGPoint {
        var p = points
        while p.count > 1 {
            for i in 0..<(p.count - 1) { p[i] = CGPoint(x: p[i].x + (p[i + 1].x - p[i].x) * t, y: p[i].y + (p[i + 1].y - p[i].y) * t) }
            p.removeLast()
        }
        return p[0]
    }

    /// The part between parameters t0 < t1, as a curve of the same degree.
    func segment(_ t0: CGFloat, _ t1: CGFloat) -> Bezier {
        if t0 == 0 && t1 == 1 { return self }
        let tail = split(at: t0).1
        let u = t0 < 1 ? (t1 - t0) / (1 - t0) : 0
        return tail.split(at: u).0
    }

    /// The curve cut at t into its two halves (de Casteljau).
    private func split(at t: CGFloat) -> (Bezier, Bezier) {
        var left: [CGPoint] = [], right: [CGPoint] = []
        var p = points
        while !p.isEmpty {
            left.append(p[0])
            right.insert(p[p.count - 1], at: 0)
            p = (0..<max(0, p.count - 1)).map { CGPoint(x: p[$0].x + (p[$0 + 1].x - p[$0].x) * t, y: p[$0].y + (p[$0 + 1].y - p[$0].y) * t) }
        }
        return (Bezier(points: left), Bezier(points: right))
    }

    var first: CGPoint? { points.first }

    /// The element drawing this curve from its first point.
    var element: CGPathElement {
        switch points.count {
        case 2: .addLineToPoint(points[1])
        case 3: .addQuadCurveToPoint(control: points[1], end: points[2])
        default: .addCurveToPoint(control1: points[1], control2: points[2], end: points[3])
        }
    }
}

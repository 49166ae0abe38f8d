import Foundation

extension CGPath {
    /// A closed rounded rectangle, laid out like `CGMutablePath.addRoundedRect(in:cornerWidth:cornerHeight:transform:)`.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: AffineTransform? = nil) {
        var data = PathData()
        data.appendRoundedRect(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform ?? .identity)
        self.init(data: data)
    }

    /// An immutable copy with every point mapped through `transform` (Apple's `copy(using:)`; nil means identity).
    public func copy(using transform: AffineTransform?) -> CGPath? {
        guard let transform else { return frozen }
        return CGPath(elements: elements.map { $0.applying(transform) })
    }
}

extension PathData {
    /// Appends a circular arc as `CGPathAddArc`: points at `center + radius·(cos a, sin a)`, the angle
    /// increasing from `startAngle` when `clockwise` is false (Core Graphics' meaning, the opposite of
    /// UIBezierPath's flag) and decreasing when true. The sweep is brought into 0…2π only when it runs the
    /// wrong way; a sweep beyond 2π is kept and winds round more than once, as Core Graphics does. A line
    /// (a move on an empty subpath) goes to the start point first; the arc is cubic pieces of at most π/2.
    mutating func appendArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                            clockwise: Bool, transform: AffineTransform) {
        let fullTurn = 2 * CGFloat.pi
        var sweep = clockwise ? startAngle - endAngle : endAngle - startAngle
        if sweep < 0 { sweep = sweep - fullTurn * (sweep / fullTurn).rounded(.down) }
        if clockwise { sweep = -sweep }
        appendArc(center: center, radius: radius, startAngle: startAngle, sweep: sweep, transform: transform)
    }

    /// Appends an arc of `sweep` radians (positive: increasing angle) from `startAngle`.
    mutating func appendArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, sweep: CGFloat,
                            transform: AffineTransform) {
        func point(_ a: CGFloat) -> CGPoint { CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a)) }
        let start = CGPathElement.addLineToPoint(point(startAngle)).applying(transform)
        if case .addLineToPoint(let p) = start, current == nil { append(.moveToPoint(p)) } else { append(start) }
        let pieces = max(1, Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)))  // ignore rounding past π/2
        let step = sweep / CGFloat(pieces)
        // A cubic through an arc of angle φ has its controls on the tangents at 4/3·tan(φ/4)·radius.
        let k = 4 / 3 * tan(step / 4) * radius
        for i in 0..<pieces {
            let a0 = startAngle + step * CGFloat(i), a1 = a0 + step
            let p0 = point(a0), p1 = point(a1)
            let c1 = CGPoint(x: p0.x - k * sin(a0), y: p0.y + k * cos(a0))
            let c2 = CGPoint(x: p1.x + k * sin(a1), y: p1.y - k * cos(a1))
            append(CGPathElement.addCurveToPoint(control1: c1, control2: c2, end: p1).applying(transform))
        }
    }

    /// Appends `CGPathAddArcToPoint`'s arc: tangent to the lines current point → `tangent1End` and
    /// `tangent1End` → `tangent2End`, preceded by a line to its first tangent point. Collinear points
    /// or a zero radius give a line to `tangent1End`; without a current point nothing is added.
    /// Points are in the path's space before `transform`, which maps the result.
    mutating func appendArc(tangent1End t1: CGPoint, tangent2End t2: CGPoint, radius: CGFloat,
                            from p0: CGPoint, transform: AffineTransform) {
        let u1 = Self.unit(CGPoint(x: p0.x - t1.x, y: p0.y - t1.y))
        let u2 = Self.unit(CGPoint(x: t2.x - t1.x, y: t2.y - t1.y))
        let cross = u1.x * u2.y - u1.y * u2.x
        let cosine = u1.x * u2.x + u1.y * u2.y
        guard radius > 0, abs(cross) > 1e-12 else {
            append(CGPathElement.addLineToPoint(t1).applying(transform))
            return
        }
        let angle = acos(max(-1, min(1, cosine)))             // the corner's angle at t1
        let reach = radius / tan(angle / 2)                    // t1 to each tangent point
        let bisector = Self.unit(CGPoint(x: u1.x + u2.x, y: u1.y + u2.y))
        let toCenter = radius / sin(angle / 2)
        let center = CGPoint(x: t1.x + bisector.x * toCenter, y: t1.y + bisector.y * toCenter)
        let a = CGPoint(x: t1.x + u1.x * reach, y: t1.y + u1.y * reach)
        let b = CGPoint(x: t1.x + u2.x * reach, y: t1.y + u2.y * reach)
        let startAngle = atan2(a.y - center.y, a.x - center.x)
        var sweep = atan2(b.y - center.y, b.x - center.x) - startAngle
        // The short way round, towards the side the corner turns to.
        if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }
        appendArc(center: center, radius: radius, startAngle: startAngle, sweep: sweep, transform: transform)
    }

    /// Appends a closed rounded rectangle: a move to (minX + cw, minY), then clockwise in a y-down space
    /// (the order of `appendRect`) edges joined by quarter ellipses of radii cw × ch. The radii are
    /// clamped to half the width and height **(choice: Core Graphics asserts instead)**; zero radii give a
    /// plain rectangle.
    mutating func appendRoundedRect(_ rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                                    transform: AffineTransform) {
        let r = rect.standardized
        let cw = max(0, min(cornerWidth, r.width / 2)), ch = max(0, min(cornerHeight, r.height / 2))
        guard cw > 0, ch > 0 else { appendRect(r, transform: transform); return }
        let kappa: CGFloat = 0.5522847498307936
        let ox = cw * kappa, oy = ch * kappa
        func line(_ x: CGFloat, _ y: CGFloat) { append(CGPathElement.addLineToPoint(CGPoint(x: x, y: y)).applying(transform)) }
        func curve(_ c1: (CGFloat, CGFloat), _ c2: (CGFloat, CGFloat), _ e: (CGFloat, CGFloat)) {
            append(CGPathElement.addCurveToPoint(control1: CGPoint(x: c1.0, y: c1.1), control2: CGPoint(x: c2.0, y: c2.1),
                                                 end: CGPoint(x: e.0, y: e.1)).applying(transform))
        }
        append(CGPathElement.moveToPoint(CGPoint(x: r.minX + cw, y: r.minY)).applying(transform))
        line(r.maxX - cw, r.minY)
        curve((r.maxX - cw + ox, r.minY), (r.maxX, r.minY + ch - oy), (r.maxX, r.minY + ch))
        line(r.maxX, r.maxY - ch)
        curve((r.maxX, r.maxY - ch + oy), (r.maxX - cw + ox, r.maxY), (r.maxX - cw, r.maxY))
        line(r.minX + cw, r.maxY)
        curve((r.minX + cw - ox, r.maxY), (r.minX, r.maxY - ch + oy), (r.minX, r.maxY - ch))
        line(r.minX, r.minY + ch)
        curve((r.minX, r.minY + ch - oy), (r.minX + cw - ox, r.minY), (r.minX + cw, r.minY))
        append(.closeSubpath)
    }

    private static func unit(_ v: CGPoint) -> CGPoint {
        let length = (v.x * v.x + v.y * v.y).squareRoot()
        return length > 0 ? CGPoint(x: v.x / length, y: v.y / length) : .zero
    }
}

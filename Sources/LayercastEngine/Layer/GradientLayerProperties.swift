import Foundation

/// The values a `CAGradientLayer` draws with, with Core Animation's defaults; points are in the
/// unit space of the bounds ((0, 0) the bounds' origin, (1, 1) the opposite corner).
public struct GradientLayerProperties: Equatable, Sendable {
    /// The stops' colours; nil or empty draws nothing.
    public var colors: [CGColor]?
    /// The stops' positions in 0…1; nil spreads them evenly (docs/engine-model.md §10.2).
    public var locations: [CGFloat]?
    /// Where the gradient starts, in unit space; (0.5, 0) by default.
    public var startPoint = CGPoint(x: 0.5, y: 0)
    /// Where the gradient ends, in unit space; (0.5, 1) by default.
    public var endPoint = CGPoint(x: 0.5, y: 1)
    /// Axial, radial or conic; `.axial` by default.
    public var type: CAGradientLayerType = .axial

    /// Core Animation's defaults: no colours, a top-to-bottom axial gradient.
    public init() {}

    /// The colour at a point of the unit space (docs/engine-model.md §10.2); nil without colours.
    /// `aspect` is the bounds' width / height, which makes radial ellipses and conic angles follow
    /// the drawn shape rather than the unit square.
    public func color(at p: CGPoint, aspect: CGFloat = 1) -> CGColor? {
        guard let colors, let first = colors.first else { return nil }
        return Self.ramp(colors: colors, locations: stops(count: colors.count), at: parameter(at: p, aspect: aspect)) ?? first
    }

    /// The gradient parameter t at a unit-space point, before the stops apply.
    public func parameter(at p: CGPoint, aspect: CGFloat = 1) -> CGFloat {
        let dx = endPoint.x - startPoint.x, dy = endPoint.y - startPoint.y
        let px = p.x - startPoint.x, py = p.y - startPoint.y
        switch type {
        case .radial:
            // The ellipse centred on startPoint with radii |dx| and |dy| passes through endPoint's
            // corner box: t = √((px/dx)² + (py/dy)²).
            let u = px / abs(dx), v = py / abs(dy)
            let t = (u.isNaN ? 0 : u * u) + (v.isNaN ? 0 : v * v)
            return t.squareRoot()
        case .conic:
            // Clockwise on screen (y down) from the direction of endPoint, in the bounds' proportions.
            let start = atan2(dy, dx * aspect)
            var angle = atan2(py, px * aspect) - start
            angle -= 2 * .pi * (angle / (2 * .pi)).rounded(.down)
            return angle / (2 * .pi)
        default:
            // Projection onto the axis, in the bounds' proportions.
            let lengthSquared = dx * dx * aspect * aspect + dy * dy
            guard lengthSquared > 0 else { return 0 }
            return (px * dx * aspect * aspect + py * dy) / lengthSquared
        }
    }

    /// The stop positions used for `count` colours: `locations` when it has one per colour, else even.
    public func stops(count: Int) -> [CGFloat] {
        if let locations, locations.count == count { return locations }
        return count == 1 ? [0] : (0..<count).map { CGFloat($0) / CGFloat(count - 1) }
    }

    /// The colour at parameter t: the first colour before the first stop, the last after the last,
    /// linear (unpremultiplied) between neighbouring stops.
    static func ramp(colors: [CGColor], locations: [CGFloat], at t: CGFloat) -> CGColor? {
        guard let first = colors.first, let last = colors.last else { return nil }
        if t.isNaN || t <= locations[0] { return first }
        guard t < locations[locations.count - 1] else { return last }
        var i = 0
        while i + 1 < locations.count - 1, locations[i + 1] <= t { i += 1 }
        let span = locations[i + 1] - locations[i]
        let u = span > 0 ? (t - locations[i]) / span : 1
        let a = colors[i], b = colors[i + 1]
        return CGColor(red: a.red + (b.red - a.red) * u, green: a.green + (b.green - a.green) * u,
                       blue: a.blue + (b.blue - a.blue) * u, alpha: a.alpha + (b.alpha - a.alpha) * u)
    }
}

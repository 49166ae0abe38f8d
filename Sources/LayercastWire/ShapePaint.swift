import Foundation
import LayercastEngine

/// A shape layer's fill and stroke before their paths have table ids (protocol.md, "Shapes"): the
/// fill takes the whole path, the stroke the part from `strokeStart` to `strokeEnd`, trimmed here
/// (PathTrim), its dash phase moved on by the length trimmed off its first subpath so that dashes
/// stay where they were on the whole path.
struct ShapePaint {
    var fill: (path: DrawPath, color: DrawColor, evenOdd: Bool)?
    /// `style.path` is filled in with the table id.
    var stroke: (path: DrawPath, style: DrawStroke)?

    var isEmpty: Bool { fill == nil && stroke == nil }

    /// The most dash lengths sent; a longer pattern draws a solid line (as one with a negative or
    /// non-finite length, or all zero, does).
    static let maxDashes = 64

    init(_ shape: ShapeLayerProperties, origin: CGPoint) {
        guard let path = shape.path, !path.isEmpty else { return }
        if let color = shape.fillColor.map(DrawColor.init), color.isVisible, let drawn = DrawPath(path.elements, origin: origin) {
            fill = (drawn, color, shape.fillRule == .evenOdd)
        }
        let width = Quantize.points(Double(shape.lineWidth))
        guard let color = shape.strokeColor.map(DrawColor.init), color.isVisible, width > 0, width.isFinite else { return }
        let trimmed = PathTrim.trim(path.elements, start: shape.strokeStart, end: shape.strokeEnd)
        guard let drawn = DrawPath(trimmed.elements, origin: origin) else { return }
        var dash = (shape.lineDashPattern ?? []).map { Quantize.points(Double($0)) }
        if dash.count > Self.maxDashes || dash.contains(where: { !($0 >= 0 && $0.isFinite) }) || !dash.contains(where: { $0 > 0 }) {
            dash = []
        }
        var phase = dash.isEmpty ? 0 : Quantize.points(Double(shape.lineDashPhase + trimmed.dashOffset))
        if !phase.isFinite { phase = 0 }
        let miter = Quantize.points(Double(shape.miterLimit))
        let style = DrawStroke(path: 0, color: color, width: width,
                               cap: DrawStroke.caps.contains(shape.lineCap.rawValue) ? shape.lineCap.rawValue : "butt",
                               join: DrawStroke.joins.contains(shape.lineJoin.rawValue) ? shape.lineJoin.rawValue : "miter",
                               miterLimit: miter.isFinite ? max(miter, 0) : 10, dash: dash, dashPhase: phase)
        stroke = (drawn, style)
    }
}

extension DrawGradient {
    /// A gradient layer's ramp for its item, `size` its bounds' size; nil without colours, with no
    /// visible colour, or with a number that is not finite. Stops are `GradientLayerProperties.stops`
    /// sorted by offset (equal ones in colour order); an unknown type reads as axial.
    init?(_ gradient: GradientLayerProperties, size: CGSize) {
        guard let colors = gradient.colors, !colors.isEmpty else { return nil }
        let stops = zip(gradient.stops(count: colors.count), colors).enumerated()
            .map { (index: $0.offset, stop: Stop(offset: Quantize.linear(Double($0.element.0)), color: DrawColor($0.element.1))) }
            .sorted { ($0.stop.offset, $0.index) < ($1.stop.offset, $1.index) }
            .map(\.stop)
        guard stops.allSatisfy({ $0.offset.isFinite }), stops.contains(where: { $0.color.isVisible }) else { return nil }
        func point(_ p: CGPoint) -> (x: Double, y: Double) {
            (Quantize.points(Double(p.x * size.width)), Quantize.points(Double(p.y * size.height)))
        }
        let start = point(gradient.startPoint), end = point(gradient.endPoint)
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { return nil }
        self.init(type: Self.types.contains(gradient.type.rawValue) ? gradient.type.rawValue : "axial",
                  stops: stops, start: start, end: end)
    }
}

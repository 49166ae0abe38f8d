import Foundation

/// The clip `masksToBounds` puts on a layer's sublayers: a rectangle of its bounds space with rounded
/// corners (docs/engine-model.md §10.4).
public struct LayerClip: Equatable, Sendable {
    /// The clip rectangle in the layer's bounds space (the standardised bounds).
    public var rect: CGRect
    /// Already clamped to half the shorter side.
    public var cornerRadius: CGFloat

    /// Whether `p` is inside the rounded rectangle (edges included).
    public func contains(_ p: CGPoint) -> Bool {
        let r = rect.standardized
        guard p.x >= r.minX, p.x <= r.maxX, p.y >= r.minY, p.y <= r.maxY else { return false }
        let dx = max(r.minX + cornerRadius - p.x, p.x - (r.maxX - cornerRadius), 0)
        let dy = max(r.minY + cornerRadius - p.y, p.y - (r.maxY - cornerRadius), 0)
        return dx * dx + dy * dy <= cornerRadius * cornerRadius
    }
}

extension LayerProperties {
    /// The clip on the sublayers: the bounds rounded by `cornerRadius` with `masksToBounds`, else nil.
    public var sublayerClip: LayerClip? {
        guard masksToBounds else { return nil }
        let r = bounds.standardized
        return LayerClip(rect: r, cornerRadius: max(0, min(cornerRadius, min(r.width, r.height) / 2)))
    }
}

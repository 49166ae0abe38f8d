import Foundation

extension CALayer {
    /// The farthest descendant (or self) containing `p`, given in the superlayer's coordinates,
    /// by Core Animation's rules (docs/engine-model.md §7). On a presentation copy this tests
    /// what is on screen; `hitTest(_:at:)` does so for a model layer.
    public func hitTest(_ p: CGPoint) -> CALayer? {
        hit(p, toPlane: superlayer?.properties.sublayerMatrix ?? CATransform3DIdentity)?.layer
    }

    /// Hit-tests the presentation tree at media time `t` and returns the model layer hit.
    public func hitTest(_ p: CGPoint, at t: CFTimeInterval) -> CALayer? {
        presentation(at: t)?.hitTest(p)?.model()
    }

    /// `toPlane` maps this layer's superlayer's bounds space into the plane `p` lives in.
    /// Returns the layer hit and its depth at the hit point (larger is nearer the viewer).
    private func hit(_ p: CGPoint, toPlane: CATransform3D) -> (layer: CALayer, depth: CGFloat)? {
        guard !properties.isHidden else { return nil }
        let m = CATransform3DConcat(properties.localMatrix, toPlane)
        let childToPlane = CATransform3DConcat(properties.sublayerMatrix, m)
        guard flattensSublayers else {
            var best: (layer: CALayer, depth: CGFloat)?
            for child in sublayers ?? [] {
                if let h = child.hit(p, toPlane: childToPlane), best == nil || h.depth >= best!.depth { best = h }
            }
            return best
        }
        guard let q = m.unproject(p), Self.isFinite(q) else { return nil }
        if !properties.isDoubleSided, !Self.facesViewer(m) { return nil }
        if properties.masksToBounds, !contains(q) { return nil }
        let depth = Self.depth(of: q, under: m)
        // Children's points live in this plane; their depth (for transform layers among them) is
        // measured before flattening, and unprojection reads only the x, y, w columns.
        for child in sublayersTopFirst() {
            if let h = child.hit(q, toPlane: properties.sublayerMatrix) { return (h.layer, depth) }
        }
        return contains(q) ? (self, depth) : nil
    }

    /// Sublayers in hit-test order: highest zPosition first, then the later sibling.
    private func sublayersTopFirst() -> [CALayer] {
        let list = sublayers ?? []
        return list.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) > ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    /// Whether the layer's plane faces the viewer: the sign of the projective map's determinant
    /// (rows and columns x, y, w), with w > 0 at the origin. An identity map faces the viewer.
    static func facesViewer(_ m: CATransform3D) -> Bool {
        let det = m.m11 * (m.m22 * m.m44 - m.m24 * m.m42)
            - m.m12 * (m.m21 * m.m44 - m.m24 * m.m41)
            + m.m14 * (m.m21 * m.m42 - m.m22 * m.m41)
        return det > 0
    }

    private static func depth(of q: CGPoint, under m: CATransform3D) -> CGFloat {
        let v = m.apply(x: q.x, y: q.y, z: 0)
        return v.w != 0 ? v.z / v.w : v.z
    }

    private static func isFinite(_ p: CGPoint) -> Bool { p.x.isFinite && p.y.isFinite }
}

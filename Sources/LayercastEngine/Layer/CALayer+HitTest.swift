import Foundation

extension CALayer {
    /// The farthest descendant (or self) containing `p`, given in the superlayer's coordinates,
    /// by Core Animation's rules (docs/engine-model.md §7). On a presentation copy this tests
    /// what is on screen; `hitTest(_:at:)` does so for a model layer.
    public func hitTest(_ p: CGPoint) -> CALayer? {
        // Nothing throws here: a foreign layer matters only to a test of the model tree at a time.
        (try? hit(p, toPlane: superlayer?.properties.sublayerMatrix ?? CATransform3DIdentity, shown: properties, at: nil))?.layer
    }

    /// Hit-tests the presentation tree at media time `t` and returns the model layer hit: what
    /// `presentation(at:)` followed by `hitTest(_:)` answers, with the presented values evaluated
    /// only where the test goes instead of copying the tree (a tree holding a layer of a class
    /// from outside the engine, which may test `contains` its own way, is copied).
    public func hitTest(_ p: CGPoint, at t: CFTimeInterval) -> CALayer? {
        guard !isPresentationCopy else { return nil }
        let parentTime = timeParent?.localTime(atMedia: t) ?? t
        let toPlane = superlayer?.presentedProperties(atLocalTime: parentTime).sublayerMatrix ?? CATransform3DIdentity
        let local = (parentTime - beginTime) * CFTimeInterval(speed) + timeOffset
        do {
            return try hit(p, toPlane: toPlane, shown: presentedProperties(atLocalTime: local), at: local)?.layer
        } catch {
            return presentation(at: t)?.hitTest(p)?.model()
        }
    }

    /// A layer whose class is not the engine's, met by a hit test that evaluates the model tree.
    private struct ForeignLayer: Error {}

    /// `toPlane` maps this layer's superlayer's bounds space into the plane `p` lives in; `props`
    /// are the values this layer shows. `local` is nil for a presentation copy (its sublayers
    /// show their own values) and this model layer's local time otherwise (its sublayers' values
    /// are evaluated at their times under it). Returns the layer hit and its depth at the hit
    /// point (larger is nearer the viewer); throws on a foreign layer of a model tree.
    private func hit(_ p: CGPoint, toPlane: CATransform3D, shown props: LayerProperties,
                     at local: CFTimeInterval?) throws -> (layer: CALayer, depth: CGFloat)? {
        if local != nil, !Self.engineClasses.contains(ObjectIdentifier(type(of: self))) { throw ForeignLayer() }
        guard !props.isHidden else { return nil }
        let m = CATransform3DConcat(props.localMatrix, toPlane)
        let childToPlane = CATransform3DConcat(props.sublayerMatrix, m)
        guard flattensSublayers else {
            var best: (layer: CALayer, depth: CGFloat)?
            for child in shownSublayers(at: local) {
                if let h = try child.layer.hit(p, toPlane: childToPlane, shown: child.props, at: child.local),
                   best == nil || h.depth >= best!.depth { best = h }
            }
            return best
        }
        guard let q = m.unproject(p), Self.isFinite(q) else { return nil }
        if !props.isDoubleSided, !Self.facesViewer(m) { return nil }
        // A model layer's own `contains` reads its model values; the engine's classes all test
        // the bounds, which is what a copy of them would test with the shown values.
        func inside(_ q: CGPoint) -> Bool { local == nil ? contains(q) : props.boundsContain(q) }
        if props.masksToBounds, !inside(q) { return nil }
        let depth = Self.depth(of: q, under: m)
        // Children's points live in this plane; their depth (for transform layers among them) is
        // measured before flattening, and unprojection reads only the x, y, w columns.
        for child in Self.topFirst(shownSublayers(at: local)) {
            if let h = try child.layer.hit(q, toPlane: props.sublayerMatrix, shown: child.props, at: child.local) { return (h.layer, depth) }
        }
        return inside(q) ? (self, depth) : nil
    }

    /// The sublayers back to front with the values they show: their own (under a presentation
    /// copy, `local` nil), or evaluated at their local times under a model layer at `local`.
    private func shownSublayers(at local: CFTimeInterval?) -> [(layer: CALayer, props: LayerProperties, local: CFTimeInterval?)] {
        (sublayers ?? []).map { child in
            guard let local else { return (child, child.properties, nil) }
            let childLocal = (local - child.beginTime) * CFTimeInterval(child.speed) + child.timeOffset
            return (child, child.presentedProperties(atLocalTime: childLocal), childLocal)
        }
    }

    /// The engine's layer classes: their hit tests read nothing but the values they show.
    private static let engineClasses: Set<ObjectIdentifier> = [
        CALayer.self, CATextLayer.self, CAShapeLayer.self, CAGradientLayer.self, CAReplicatorLayer.self,
        CATransformLayer.self, CAEmitterLayer.self,
    ].map { ObjectIdentifier($0) }.reduce(into: []) { $0.insert($1) }

    /// Sublayers in hit-test order: highest zPosition first, then the later sibling.
    private static func topFirst<T>(_ list: [(layer: CALayer, props: LayerProperties, local: T)]) -> [(layer: CALayer, props: LayerProperties, local: T)] {
        list.enumerated()
            .sorted { ($0.element.props.zPosition, $0.offset) > ($1.element.props.zPosition, $1.offset) }
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

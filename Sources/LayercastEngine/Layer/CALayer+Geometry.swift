import Foundation

/// Zeroes the z output column: what a flattening layer does to its sublayers' 3D positions.
let flatteningMatrix = CATransform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                     m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

extension LayerProperties {
    /// The anchor point in bounds coordinates.
    public var anchorInBounds: CGPoint {
        CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// Maps this layer's bounds space into its superlayer's bounds space, before the superlayer's
    /// sublayerTransform and flattening (docs/engine-model.md §6).
    public var localMatrix: CATransform3D {
        let a = anchorInBounds
        let toAnchor = CATransform3DMakeTranslation(-a.x, -a.y, -anchorPointZ)
        return CATransform3DConcat(CATransform3DConcat(toAnchor, transform),
                                   CATransform3DMakeTranslation(position.x, position.y, zPosition))
    }

    /// The sublayerTransform applied about this layer's anchor point.
    public var sublayerMatrix: CATransform3D {
        if CATransform3DIsIdentity(sublayerTransform) { return CATransform3DIdentity }
        let a = anchorInBounds
        return CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-a.x, -a.y, 0), sublayerTransform),
                                   CATransform3DMakeTranslation(a.x, a.y, 0))
    }

    /// Whether a point in bounds coordinates lies inside them: half-open, as CGRectContainsPoint.
    public func boundsContain(_ p: CGPoint) -> Bool {
        let b = bounds.standardized
        return p.x >= b.minX && p.x < b.maxX && p.y >= b.minY && p.y < b.maxY
    }

    /// The frame: the bounding box of the bounds corners in the superlayer (projected by w).
    public var frame: CGRect {
        let m = localMatrix
        let b = bounds
        let corners = [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                       CGPoint(x: b.minX, y: b.maxY), CGPoint(x: b.maxX, y: b.maxY)]
        let mapped = corners.compactMap { m.project($0) }
        guard mapped.count == 4 else { return .null }
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

extension CALayer {
    /// The frame in the superlayer's coordinates; setting it sets position and bounds size.
    public var frame: CGRect {
        get { properties.frame }
        set {
            let r = newValue.standardized
            bounds = CGRect(origin: bounds.origin, size: r.size)
            position = CGPoint(x: r.minX + anchorPoint.x * r.width, y: r.minY + anchorPoint.y * r.height)
        }
    }

    /// Maps this layer's bounds space into `ancestor`'s bounds space (the superlayer space of the
    /// root when nil), flattening at every plain layer on the way.
    func matrix(toAncestor ancestor: CALayer?) -> CATransform3D {
        var m = properties.localMatrix
        var layer = self
        while let parent = layer.superlayer, parent !== ancestor {
            m = CATransform3DConcat(m, parent.properties.sublayerMatrix)
            if parent.flattensSublayers { m = CATransform3DConcat(m, flatteningMatrix) }
            m = CATransform3DConcat(m, parent.properties.localMatrix)
            layer = parent
        }
        if let parent = layer.superlayer {
            m = CATransform3DConcat(m, parent.properties.sublayerMatrix)
        }
        return CATransform3DConcat(m, flatteningMatrix)
    }

    /// The nearest layer that is this layer or one of its ancestors and also `other` or one of its.
    private func commonAncestor(with other: CALayer) -> CALayer? {
        var mine: Set<ObjectIdentifier> = []
        var layer: CALayer? = self
        while let l = layer { mine.insert(ObjectIdentifier(l)); layer = l.superlayer }
        layer = other
        while let l = layer {
            if mine.contains(ObjectIdentifier(l)) { return l }
            layer = l.superlayer
        }
        return nil
    }

    /// The matrix from this layer's bounds space into `space`'s bounds space (the root's
    /// superlayer when nil, or this layer itself).
    private func matrix(into space: CALayer?) -> CATransform3D {
        space === self ? CATransform3DIdentity : matrix(toAncestor: space)
    }

    /// Converts a point from this layer's coordinates to `layer`'s (the root's superlayer when nil),
    /// through 3D transforms; nil-safe: an unreachable point comes back unchanged.
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let layer else { return matrix(toAncestor: nil).project(p) ?? p }
        let ancestor = commonAncestor(with: layer)
        guard let up = matrix(into: ancestor).project(p) else { return p }
        return layer.matrix(into: ancestor).unproject(up) ?? p
    }

    /// Converts a point from `layer`'s coordinates (the root's superlayer when nil) to this layer's.
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        guard let layer else { return matrix(toAncestor: nil).unproject(p) ?? p }
        return layer.convert(p, to: self)
    }

    /// Converts a rect to `layer`'s coordinates: the bounding box of its converted corners.
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        boundingBox(of: r) { convert($0, to: layer) }
    }

    /// Converts a rect from `layer`'s coordinates: the bounding box of its converted corners.
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        boundingBox(of: r) { convert($0, from: layer) }
    }

    private func boundingBox(of r: CGRect, _ map: (CGPoint) -> CGPoint) -> CGRect {
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map(map)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

}

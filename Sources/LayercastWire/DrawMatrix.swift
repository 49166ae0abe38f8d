import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// An item's map from its rect to scene points, quantised: `X = a·x + c·y + tx`,
/// `Y = b·x + d·y + ty`, `W = g·x + h·y + 1`, scene point `(X / W, Y / W)` (protocol.md, "Matrices").
public struct DrawMatrix: Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double
    /// Perspective terms; both 0 for an affine map.
    public var g, h: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double, g: Double = 0, h: Double = 0) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty, self.g, self.h) = (a, b, c, d, tx, ty, g, h)
    }

    public static let identity = DrawMatrix(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// `toScene` (bounds space → scene, 4×4) at z = 0 with the bounds origin folded in and scaled
    /// so that w = 1, then quantised; nil when w at the origin is not positive or a number is not finite.
    init?(_ toScene: CATransform3D, boundsOrigin o: CGPoint) {
        let m = toScene
        let w = Double(m.m14 * o.x + m.m24 * o.y + m.m44)
        guard w > 0 else { return nil }
        let tx = Double(m.m11 * o.x + m.m21 * o.y + m.m41), ty = Double(m.m12 * o.x + m.m22 * o.y + m.m42)
        self.init(a: Quantize.linear(Double(m.m11) / w), b: Quantize.linear(Double(m.m12) / w),
                  c: Quantize.linear(Double(m.m21) / w), d: Quantize.linear(Double(m.m22) / w),
                  tx: Quantize.points(tx / w), ty: Quantize.points(ty / w),
                  g: Quantize.perspective(Double(m.m14) / w), h: Quantize.perspective(Double(m.m24) / w))
        guard a.isFinite, b.isFinite, c.isFinite, d.isFinite, self.tx.isFinite, self.ty.isFinite, g.isFinite, h.isFinite
        else { return nil }
    }

    public var isAffine: Bool { g == 0 && h == 0 }

    /// The scene point of `(x, y)` in the item's rect (nil at or behind the eye, W ≤ 0).
    public func apply(x: Double, y: Double) -> (x: Double, y: Double)? {
        let w = g * x + h * y + 1
        guard w > 0 else { return nil }
        return ((a * x + c * y + tx) / w, (b * x + d * y + ty) / w)
    }

    /// `[a,b,c,d,tx,ty]`, or `[a,b,c,d,tx,ty,g,h,1]` when projective.
    public var json: JSONValue { tree.value }

    /// `json` as a jansson tree.
    var tree: JSONTree {
        let array = JSONTree.array()
        array.append(a)
        array.append(b)
        array.append(c)
        array.append(d)
        array.append(tx)
        array.append(ty)
        if !isAffine {
            array.append(g)
            array.append(h)
            array.append(1)
        }
        return array
    }

    /// Reads 6 numbers, or 9 whose last is 1.
    init(_ field: FieldReader) throws(ProtocolError) {
        let requirement = "an array of 6 numbers, or 9 ending in 1"
        let elements = try field.array(requirement)
        guard elements.count == 6 || elements.count == 9 else { throw field.error(requirement) }
        var n: [Double] = []
        for element in elements { n.append(try element.number()) }
        guard n.count == 6 || n[8] == 1 else { throw field.error(requirement) }
        self.init(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5], g: n.count == 9 ? n[6] : 0, h: n.count == 9 ? n[7] : 0)
    }
}

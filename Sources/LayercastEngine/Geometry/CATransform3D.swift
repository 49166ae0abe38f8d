import Foundation

/// A 4×4 homogeneous transform with Core Animation's layout: a point is the row vector
/// `[x y z 1]` multiplied on the left, so translation is `m41 m42 m43` and perspective is `m34`.
public struct CATransform3D: Hashable, Sendable {
    /// Row 1: where the x axis goes (scale and rotation), and `m14` its perspective term.
    public var m11, m12, m13, m14: CGFloat
    /// Row 2: where the y axis goes (scale and rotation), and `m24` its perspective term.
    public var m21, m22, m23, m24: CGFloat
    /// Row 3: where the z axis goes; `m34` is the perspective term (−1/eye distance for a 3D look).
    public var m31, m32, m33, m34: CGFloat
    /// Row 4: the translation (`m41 m42 m43`) and the homogeneous scale `m44` (1 for affine transforms).
    public var m41, m42, m43, m44: CGFloat

    /// Creates a transform from all sixteen entries, row by row.
    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// Creates the identity transform.
    public init() {
        self.init(
            m11: 1, m12: 0, m13: 0, m14: 0,
            m21: 0, m22: 1, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1
        )
    }

    /// The identity transform.
    public static let identity = CATransform3D()

    /// Whether every entry equals the identity's exactly.
    public var isIdentity: Bool { self == .identity }

    /// `self · other`: the transform that applies `self` first, then `other`.
    public func concatenating(_ other: CATransform3D) -> CATransform3D {
        let a = self, b = other
        return CATransform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44
        )
    }

    /// The inverse transform, or nil when the determinant is zero or not finite.
    public var inverse: CATransform3D? {
        // Cofactor expansion through 2×2 minors of rows 1–2 (s) and rows 3–4 (c).
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13
        let s2 = m11 * m24 - m21 * m14, s3 = m12 * m23 - m22 * m13
        let s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c0 = m31 * m42 - m41 * m32, c1 = m31 * m43 - m41 * m33
        let c2 = m31 * m44 - m41 * m34, c3 = m32 * m43 - m42 * m33
        let c4 = m32 * m44 - m42 * m34, c5 = m33 * m44 - m43 * m34
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        guard det != 0, det.isFinite else { return nil }
        let r = 1 / det
        return CATransform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * r,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * r,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * r,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * r,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * r,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * r,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * r,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * r,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * r,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * r,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * r,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * r,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * r,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * r,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * r,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * r
        )
    }

    /// The homogeneous image of `(x, y, z, 1)`: the row vector times this matrix, without dividing by w.
    public func apply(x: CGFloat, y: CGFloat, z: CGFloat) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        (
            x: x * m11 + y * m21 + z * m31 + m41,
            y: x * m12 + y * m22 + z * m32 + m42,
            z: x * m13 + y * m23 + z * m33 + m43,
            w: x * m14 + y * m24 + z * m34 + m44
        )
    }

    /// Maps `(p.x, p.y, 0, 1)` and divides by w; nil when w ≤ 1e-12 (at or behind the eye).
    public func project(_ p: CGPoint) -> CGPoint? {
        let h = apply(x: p.x, y: p.y, z: 0)
        guard h.w > 1e-12 else { return nil }
        return CGPoint(x: h.x / h.w, y: h.y / h.w)
    }

    /// The point on the source plane z = 0 whose projection is `p` (z of the image ignored);
    /// nil when that mapping is singular or the source point has w ≤ 0 (behind the eye).
    public func unproject(_ p: CGPoint) -> CGPoint? {
        // [x y 1]·H = W·[p.x p.y 1] with H = rows 1, 2, 4 × columns 1, 2, 4, so
        // [x y 1] = W·v where v = [p.x p.y 1]·H⁻¹ = [p.x p.y 1]·adj(H) / det(H), and W = 1 / v.z.
        // a, b, c are the rows of adj(H).
        let a0 = m22 * m44 - m24 * m42, a1 = m14 * m42 - m12 * m44, a2 = m12 * m24 - m14 * m22
        let b0 = m24 * m41 - m21 * m44, b1 = m11 * m44 - m14 * m41, b2 = m14 * m21 - m11 * m24
        let c0 = m21 * m42 - m22 * m41, c1 = m12 * m41 - m11 * m42, c2 = m11 * m22 - m12 * m21
        let det = m11 * a0 + m12 * b0 + m14 * c0
        guard det != 0, det.isFinite else { return nil }
        let vx = (p.x * a0 + p.y * b0 + c0) / det
        let vy = (p.x * a1 + p.y * b1 + c1) / det
        let vw = (p.x * a2 + p.y * b2 + c2) / det
        guard vw > 0 else { return nil }
        let result = CGPoint(x: vx / vw, y: vy / vw)
        guard result.x.isFinite, result.y.isFinite else { return nil }
        return result
    }

    /// Whether the front (+z) face of the source plane z = 0 faces the viewer on a y-down screen:
    /// the projected unit x and y vectors at the origin keep their orientation (identity → true).
    public func facesViewer() -> Bool {
        guard let o = project(CGPoint(x: 0, y: 0)),
              let ex = project(CGPoint(x: 1, y: 0)),
              let ey = project(CGPoint(x: 0, y: 1)) else { return false }
        return (ex.x - o.x) * (ey.y - o.y) - (ex.y - o.y) * (ey.x - o.x) > 0
    }
}

/// The identity transform `[1 0 0 0; 0 1 0 0; 0 0 1 0; 0 0 0 1]`.
public let CATransform3DIdentity = CATransform3D()

/// Whether `t` equals the identity exactly.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool {
    t.isIdentity
}

/// Whether `a` and `b` are equal entry by entry.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
    a == b
}

/// A transform that translates by `(tx, ty, tz)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3D()
    (t.m41, t.m42, t.m43) = (tx, ty, tz)
    return t
}

/// A transform that scales by `(sx, sy, sz)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3D()
    (t.m11, t.m22, t.m33) = (sx, sy, sz)
    return t
}

/// A rotation by `angle` radians about the axis `(x, y, z)` (normalised; a zero axis gives the identity).
/// About `(0, 0, 1)` this is m11 = cos, m12 = sin, m21 = −sin, m22 = cos, as in Core Animation.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return CATransform3D() }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cos(angle), s = sin(angle), k = 1 - c
    return CATransform3D(
        m11: c + k * x * x, m12: k * x * y + s * z, m13: k * x * z - s * y, m14: 0,
        m21: k * x * y - s * z, m22: c + k * y * y, m23: k * y * z + s * x, m24: 0,
        m31: k * x * z + s * y, m32: k * y * z - s * x, m33: c + k * z * z, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1
    )
}

/// `t` preceded by a translation: `Concat(MakeTranslation(tx, ty, tz), t)`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DMakeTranslation(tx, ty, tz).concatenating(t)
}

/// `t` preceded by a scale: `Concat(MakeScale(sx, sy, sz), t)`.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DMakeScale(sx, sy, sz).concatenating(t)
}

/// `t` preceded by a rotation: `Concat(MakeRotation(angle, x, y, z), t)`.
public func CATransform3DRotate(
    _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
    CATransform3DMakeRotation(angle, x, y, z).concatenating(t)
}

/// `a · b`: applies `a` first, then `b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    a.concatenating(b)
}

/// The inverse of `t`, or `t` itself unchanged when it is singular (as Core Animation does).
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    t.inverse ?? t
}

/// Whether `t` is exactly representable as a 2D affine transform (only m11 m12 m21 m22 m41 m42 free).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0
        && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0
        && t.m43 == 0 && t.m44 == 1
}

import Foundation

/// A 3D matrix split into the components of CSS Transforms Level 2, "Interpolation of 3D matrices".
/// Recomposition applies, to a row vector, scale, then skew, then rotation, then translation, then perspective.
public struct DecomposedTransform3D: Equatable, Sendable {
    /// A three-component vector.
    public struct Vector3: Equatable, Sendable {
        /// The components along x, y and z.
        public var x, y, z: CGFloat
        /// Creates a vector from its components.
        public init(x: CGFloat, y: CGFloat, z: CGFloat) { (self.x, self.y, self.z) = (x, y, z) }
    }

    /// A four-component vector (perspective column or quaternion).
    public struct Vector4: Equatable, Sendable {
        /// The components; a quaternion's `w` is its real part.
        public var x, y, z, w: CGFloat
        /// Creates a vector from its components.
        public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { (self.x, self.y, self.z, self.w) = (x, y, z, w) }
    }

    /// Shear factors (CSS order XY, XZ, YZ): a point gains `xy·y` in x, `xz·z` in x and `yz·z` in y.
    public struct Skew: Equatable, Sendable {
        /// The shear of x by y, of x by z and of y by z.
        public var xy, xz, yz: CGFloat
        /// Creates skew factors.
        public init(xy: CGFloat, xz: CGFloat, yz: CGFloat) { (self.xy, self.xz, self.yz) = (xy, xz, yz) }
    }

    /// Translation, from m41 m42 m43 of the m44-normalised matrix.
    public var translation: Vector3
    /// Scale along the rows' axes; all three are negated when the matrix flips handedness.
    public var scale: Vector3
    /// Shear factors of the upper 3×3 part.
    public var skew: Skew
    /// The perspective column (m14 m24 m34 m44 after removing the affine part); (0, 0, 0, 1) when none.
    public var perspective: Vector4
    /// The rotation as a unit quaternion with w ≥ 0; (ax·sin(θ/2), ay·sin(θ/2), az·sin(θ/2), cos(θ/2))
    /// is `CATransform3DMakeRotation(θ, ax, ay, az)`.
    public var quaternion: Vector4

    /// Creates a decomposition from its components.
    public init(translation: Vector3, scale: Vector3, skew: Skew, perspective: Vector4, quaternion: Vector4) {
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
        self.quaternion = quaternion
    }

    /// Decomposes `t` per CSS; nil when m44 is 0 or the upper 3×3 part is singular.
    /// The matrix is first divided by m44, so recomposition returns `t / t.m44`.
    public init?(_ t: CATransform3D) {
        guard t.m44 != 0 else { return nil }
        let m = t.allEntries(times: 1 / t.m44)
        var affine = m
        (affine.m14, affine.m24, affine.m34, affine.m44) = (0, 0, 0, 1)
        guard let inverseAffine = affine.inverse else { return nil }

        if m.m14 != 0 || m.m24 != 0 || m.m34 != 0 {
            perspective = inverseAffine.timesColumn(Vector4(x: m.m14, y: m.m24, z: m.m34, w: m.m44))
        } else {
            perspective = Vector4(x: 0, y: 0, z: 0, w: 1)
        }
        translation = Vector3(x: m.m41, y: m.m42, z: m.m43)

        // Gram–Schmidt on the rows: row0 = sx·u0, row1 = sy·(xy·u0 + u1), row2 = sz·(xz·u0 + yz·u1 + u2).
        var row0 = Vector3(x: m.m11, y: m.m12, z: m.m13)
        var row1 = Vector3(x: m.m21, y: m.m22, z: m.m23)
        var row2 = Vector3(x: m.m31, y: m.m32, z: m.m33)
        var scale = Vector3(x: row0.length, y: 0, z: 0)
        row0 = row0 * (1 / scale.x)
        var skew = Skew(xy: row0.dot(row1), xz: 0, yz: 0)
        row1 = row1 - row0 * skew.xy
        scale.y = row1.length
        row1 = row1 * (1 / scale.y)
        skew.xy /= scale.y
        skew.xz = row0.dot(row2)
        row2 = row2 - row0 * skew.xz
        skew.yz = row1.dot(row2)
        row2 = row2 - row1 * skew.yz
        scale.z = row2.length
        row2 = row2 * (1 / scale.z)
        skew.xz /= scale.z
        skew.yz /= scale.z

        if row0.dot(row1.cross(row2)) < 0 {
            scale = scale * -1
            (row0, row1, row2) = (row0 * -1, row1 * -1, row2 * -1)
        }
        self.scale = scale
        self.skew = skew
        quaternion = Self.quaternion(rows: row0, row1, row2)
    }

    /// The recomposed matrix: scale · skew · rotation · translation · perspective (row-vector order).
    public var transform: CATransform3D {
        var scaleMatrix = CATransform3D()
        (scaleMatrix.m11, scaleMatrix.m22, scaleMatrix.m33) = (scale.x, scale.y, scale.z)
        var skewMatrix = CATransform3D()
        (skewMatrix.m21, skewMatrix.m31, skewMatrix.m32) = (skew.xy, skew.xz, skew.yz)
        var perspectiveMatrix = CATransform3D()
        (perspectiveMatrix.m14, perspectiveMatrix.m24, perspectiveMatrix.m34, perspectiveMatrix.m44) =
            (perspective.x, perspective.y, perspective.z, perspective.w)
        return scaleMatrix
            .concatenating(skewMatrix)
            .concatenating(rotationMatrix)
            .concatenating(CATransform3DMakeTranslation(translation.x, translation.y, translation.z))
            .concatenating(perspectiveMatrix)
    }

    /// The rotation matrix of `quaternion`, in the row-vector layout of `CATransform3DMakeRotation`.
    private var rotationMatrix: CATransform3D {
        let (x, y, z, w) = (quaternion.x, quaternion.y, quaternion.z, quaternion.w)
        return CATransform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1
        )
    }

    /// The unit quaternion (w ≥ 0) of the orthonormal, right-handed rows, the inverse of `rotationMatrix`.
    /// Shepperd's method: CSS's per-component square roots lose precision near zero and the signs at w = 0.
    private static func quaternion(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) -> Vector4 {
        let trace = r0.x + r1.y + r2.z
        var q: Vector4
        if trace > 0 {
            let s = 2 * (1 + trace).squareRoot()
            q = Vector4(x: (r1.z - r2.y) / s, y: (r2.x - r0.z) / s, z: (r0.y - r1.x) / s, w: s / 4)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = 2 * (1 + r0.x - r1.y - r2.z).squareRoot()
            q = Vector4(x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s, w: (r1.z - r2.y) / s)
        } else if r1.y > r2.z {
            let s = 2 * (1 + r1.y - r0.x - r2.z).squareRoot()
            q = Vector4(x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s, w: (r2.x - r0.z) / s)
        } else {
            let s = 2 * (1 + r2.z - r0.x - r1.y).squareRoot()
            q = Vector4(x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4, w: (r0.y - r1.x) / s)
        }
        return q.normalized * (q.w < 0 ? -1 : 1)
    }

    /// Linear interpolation of every component except the quaternion, which is slerped the short way round.
    /// `fraction` is not clamped: values outside 0…1 extrapolate.
    func interpolated(to other: Self, _ fraction: CGFloat) -> Self {
        Self(
            translation: translation + (other.translation - translation) * fraction,
            scale: scale + (other.scale - scale) * fraction,
            skew: Skew(
                xy: skew.xy + (other.skew.xy - skew.xy) * fraction,
                xz: skew.xz + (other.skew.xz - skew.xz) * fraction,
                yz: skew.yz + (other.skew.yz - skew.yz) * fraction
            ),
            perspective: perspective + (other.perspective - perspective) * fraction,
            quaternion: quaternion.slerp(to: other.quaternion, fraction)
        )
    }
}

/// Interpolates between two transforms as CSS does for 3D matrices (decompose, interpolate, recompose);
/// discrete (`fraction < 0.5 ? from : to`) when either is not decomposable. `fraction` is not clamped.
public func CATransform3DInterpolate(_ from: CATransform3D, _ to: CATransform3D, _ fraction: CGFloat) -> CATransform3D {
    guard let a = DecomposedTransform3D(from), let b = DecomposedTransform3D(to) else {
        return fraction < 0.5 ? from : to
    }
    return a.interpolated(to: b, fraction).transform
}

private extension CATransform3D {
    /// Every entry multiplied by `k`.
    func allEntries(times k: CGFloat) -> CATransform3D {
        CATransform3D(
            m11: m11 * k, m12: m12 * k, m13: m13 * k, m14: m14 * k,
            m21: m21 * k, m22: m22 * k, m23: m23 * k, m24: m24 * k,
            m31: m31 * k, m32: m32 * k, m33: m33 * k, m34: m34 * k,
            m41: m41 * k, m42: m42 * k, m43: m43 * k, m44: m44 * k
        )
    }

    /// This matrix times the column vector `v`.
    func timesColumn(_ v: DecomposedTransform3D.Vector4) -> DecomposedTransform3D.Vector4 {
        DecomposedTransform3D.Vector4(
            x: m11 * v.x + m12 * v.y + m13 * v.z + m14 * v.w,
            y: m21 * v.x + m22 * v.y + m23 * v.z + m24 * v.w,
            z: m31 * v.x + m32 * v.y + m33 * v.z + m34 * v.w,
            w: m41 * v.x + m42 * v.y + m43 * v.z + m44 * v.w
        )
    }
}

private extension DecomposedTransform3D.Vector3 {
    static func + (a: Self, b: Self) -> Self { Self(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    static func - (a: Self, b: Self) -> Self { Self(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    static func * (a: Self, k: CGFloat) -> Self { Self(x: a.x * k, y: a.y * k, z: a.z * k) }
    func dot(_ b: Self) -> CGFloat { x * b.x + y * b.y + z * b.z }
    func cross(_ b: Self) -> Self { Self(x: y * b.z - z * b.y, y: z * b.x - x * b.z, z: x * b.y - y * b.x) }
    var length: CGFloat { dot(self).squareRoot() }
}

private extension DecomposedTransform3D.Vector4 {
    static func + (a: Self, b: Self) -> Self { Self(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z, w: a.w + b.w) }
    static func - (a: Self, b: Self) -> Self { Self(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z, w: a.w - b.w) }
    static func * (a: Self, k: CGFloat) -> Self { Self(x: a.x * k, y: a.y * k, z: a.z * k, w: a.w * k) }
    func dot(_ b: Self) -> CGFloat { x * b.x + y * b.y + z * b.z + w * b.w }
    var normalized: Self { self * (1 / dot(self).squareRoot()) }

    /// Spherical linear interpolation of unit quaternions, negating `other` when the dot product is
    /// negative (short way round); normalised linear interpolation when the angle is tiny.
    func slerp(to other: Self, _ fraction: CGFloat) -> Self {
        var other = other
        var cosine = dot(other)
        if cosine < 0 { (other, cosine) = (other * -1, -cosine) }
        let angle = acos(min(cosine, 1))
        let sine = sin(angle)
        guard sine > 1e-6 else { return (self + (other - self) * fraction).normalized }
        return self * (sin((1 - fraction) * angle) / sine) + other * (sin(fraction * angle) / sine)
    }
}

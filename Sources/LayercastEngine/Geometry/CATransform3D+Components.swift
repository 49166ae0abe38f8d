import Foundation

extension CATransform3D {
    /// The sixteen fields in CATransform3D order m11, m12, …, m44.
    public var components: [CGFloat] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// A transform from sixteen fields in CATransform3D order; `c` must hold 16 numbers.
    public init(components c: [CGFloat]) {
        precondition(c.count == 16, "CATransform3D needs 16 components")
        self.init(m11: c[0], m12: c[1], m13: c[2], m14: c[3],
                  m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                  m31: c[8], m32: c[9], m33: c[10], m34: c[11],
                  m41: c[12], m42: c[13], m43: c[14], m44: c[15])
    }
}

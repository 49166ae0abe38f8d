import Foundation

/// A two-dimensional vector, as Core Graphics' `CGVector` (Foundation on Linux has `CGPoint` and
/// `CGSize` but not this). No Core Animation property takes one: `shadowOffset` is a `CGSize` there
/// as here; it is for ported code that keeps velocities and directions in `CGVector`s.
public struct CGVector: Hashable, Sendable {
    /// The x component.
    public var dx: CGFloat
    /// The y component.
    public var dy: CGFloat

    /// A vector with the given components, as `CGVector(dx:dy:)`.
    public init(dx: CGFloat, dy: CGFloat) {
        self.dx = dx
        self.dy = dy
    }

    /// A vector with `Double` components, as Core Graphics' `init(dx:dy:)` overload.
    public init(dx: Double, dy: Double) {
        self.init(dx: CGFloat(dx), dy: CGFloat(dy))
    }

    /// A vector with `Int` components, as Core Graphics' `init(dx:dy:)` overload.
    public init(dx: Int, dy: Int) {
        self.init(dx: CGFloat(dx), dy: CGFloat(dy))
    }

    /// The vector (0, 0), as `CGVector.zero`.
    public static let zero = CGVector(dx: 0, dy: 0)

    /// The zero vector, as `CGVector()`.
    public init() {
        self.init(dx: 0, dy: 0)
    }
}

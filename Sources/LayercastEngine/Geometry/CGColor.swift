import Foundation

/// An RGBA colour with unpremultiplied components in 0…1, spelled like Core Graphics' `CGColor`.
public struct CGColor: Hashable, Sendable {
    /// The red component, unpremultiplied, in 0…1.
    public var red: CGFloat
    /// The green component, unpremultiplied, in 0…1.
    public var green: CGFloat
    /// The blue component, unpremultiplied, in 0…1.
    public var blue: CGFloat
    /// The opacity, 0 transparent to 1 opaque.
    public var alpha: CGFloat

    /// A colour from unpremultiplied components in 0…1, as `CGColor(red:green:blue:alpha:)`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey level with alpha, as `CGColor(gray:alpha:)`.
    public init(gray: CGFloat, alpha: CGFloat) {
        self.init(red: gray, green: gray, blue: gray, alpha: alpha)
    }

    /// Components in the order r, g, b, a, as `CGColor.components` for an RGB colour.
    public var components: [CGFloat] { [red, green, blue, alpha] }

    /// The colour with a new alpha, as `CGColor.copy(alpha:)`.
    public func copy(alpha: CGFloat) -> CGColor {
        CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Transparent black, as `CGColor.clear`.
    public static let clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black, as `CGColor.black`.
    public static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    /// Opaque white, as `CGColor.white`.
    public static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
}

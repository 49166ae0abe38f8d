import Foundation
import LayercastEngine

/// A colour with UIKit's names, over the engine's `CGColor` (sRGB components, 0…1).
public final class UIColor: Hashable, @unchecked Sendable {
    /// The colour as a layer takes it.
    public let cgColor: CGColor

    /// The colour of a `CGColor`.
    public init(cgColor: CGColor) { self.cgColor = cgColor }

    /// A colour from sRGB components, each clamped to 0…1 as UIKit's extended range is not drawn.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// A grey of `white` brightness.
    public convenience init(white: CGFloat, alpha: CGFloat) { self.init(cgColor: CGColor(gray: white, alpha: alpha)) }

    /// A colour from hue, saturation and brightness (each 0…1), as UIKit converts HSB to RGB.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue - hue.rounded(.down)) * 6, s = min(max(saturation, 0), 1), v = min(max(brightness, 0), 1)
        let sector = Int(h) % 6, f = h - CGFloat(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][sector]
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor { UIColor(cgColor: cgColor.copy(alpha: alpha)) }

    /// Reads the sRGB components into the pointers, as UIKit's; always succeeds.
    @discardableResult
    public func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                       blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        red?.pointee = cgColor.red
        green?.pointee = cgColor.green
        blue?.pointee = cgColor.blue
        alpha?.pointee = cgColor.alpha
        return true
    }

    public static func == (lhs: UIColor, rhs: UIColor) -> Bool { lhs.cgColor == rhs.cgColor }
    public func hash(into hasher: inout Hasher) { hasher.combine(cgColor) }

    /// Black.
    public static var black: UIColor { UIColor(cgColor: .black) }
    /// White.
    public static var white: UIColor { UIColor(cgColor: .white) }
    /// Transparent black.
    public static var clear: UIColor { UIColor(cgColor: .clear) }
    /// Grey 0.5.
    public static var gray: UIColor { UIColor(cgColor: .gray) }
    /// Grey 1/3.
    public static var darkGray: UIColor { UIColor(cgColor: .darkGray) }
    /// Grey 2/3.
    public static var lightGray: UIColor { UIColor(cgColor: .lightGray) }
    /// 1, 0, 0.
    public static var red: UIColor { UIColor(cgColor: .red) }
    /// 0, 1, 0.
    public static var green: UIColor { UIColor(cgColor: .green) }
    /// 0, 0, 1.
    public static var blue: UIColor { UIColor(cgColor: .blue) }
    /// 0, 1, 1.
    public static var cyan: UIColor { UIColor(cgColor: .cyan) }
    /// 1, 1, 0.
    public static var yellow: UIColor { UIColor(cgColor: .yellow) }
    /// 1, 0, 1.
    public static var magenta: UIColor { UIColor(cgColor: .magenta) }
    /// 1, 0.5, 0.
    public static var orange: UIColor { UIColor(cgColor: .orange) }
    /// 0.5, 0, 0.5.
    public static var purple: UIColor { UIColor(cgColor: .purple) }
    /// 0.6, 0.4, 0.2.
    public static var brown: UIColor { UIColor(cgColor: .brown) }
    /// UIKit's `systemRed` (light appearance).
    public static var systemRed: UIColor { UIColor(cgColor: .systemRed) }
    /// UIKit's `systemOrange` (light appearance).
    public static var systemOrange: UIColor { UIColor(cgColor: .systemOrange) }
    /// UIKit's `systemYellow` (light appearance).
    public static var systemYellow: UIColor { UIColor(cgColor: .systemYellow) }
    /// UIKit's `systemGreen` (light appearance).
    public static var systemGreen: UIColor { UIColor(cgColor: .systemGreen) }
    /// UIKit's `systemTeal` (light appearance).
    public static var systemTeal: UIColor { UIColor(cgColor: .systemTeal) }
    /// UIKit's `systemBlue` (light appearance).
    public static var systemBlue: UIColor { UIColor(cgColor: .systemBlue) }
    /// UIKit's `systemIndigo` (light appearance).
    public static var systemIndigo: UIColor { UIColor(cgColor: .systemIndigo) }
    /// UIKit's `systemPurple` (light appearance).
    public static var systemPurple: UIColor { UIColor(cgColor: .systemPurple) }
    /// UIKit's `systemPink` (light appearance).
    public static var systemPink: UIColor { UIColor(cgColor: .systemPink) }
    /// UIKit's `systemGray` (light appearance).
    public static var systemGray: UIColor { UIColor(cgColor: .systemGray) }
    /// UIKit's `systemGray6` (light appearance).
    public static var systemGray6: UIColor { UIColor(cgColor: .systemGray6) }
}

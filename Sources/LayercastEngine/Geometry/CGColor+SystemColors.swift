import Foundation

/// UIKit's system colours as `CGColor` constants, named as `UIColor`'s (`UIColor.systemRed.cgColor`
/// is `CGColor.systemRed` here), with their light-appearance sRGB values from Apple's Human
/// Interface Guidelines ("Color", iOS). A scene has one appearance, so there is no dark variant.
extension CGColor {
    /// UIKit's `systemRed`: 255, 59, 48.
    public static let systemRed = CGColor(red: 255 / 255, green: 59 / 255, blue: 48 / 255, alpha: 1)
    /// UIKit's `systemOrange`: 255, 149, 0.
    public static let systemOrange = CGColor(red: 255 / 255, green: 149 / 255, blue: 0, alpha: 1)
    /// UIKit's `systemYellow`: 255, 204, 0.
    public static let systemYellow = CGColor(red: 255 / 255, green: 204 / 255, blue: 0, alpha: 1)
    /// UIKit's `systemGreen`: 52, 199, 89.
    public static let systemGreen = CGColor(red: 52 / 255, green: 199 / 255, blue: 89 / 255, alpha: 1)
    /// UIKit's `systemTeal`: 48, 176, 199.
    public static let systemTeal = CGColor(red: 48 / 255, green: 176 / 255, blue: 199 / 255, alpha: 1)
    /// UIKit's `systemBlue`: 0, 122, 255.
    public static let systemBlue = CGColor(red: 0, green: 122 / 255, blue: 255 / 255, alpha: 1)
    /// UIKit's `systemIndigo`: 88, 86, 214.
    public static let systemIndigo = CGColor(red: 88 / 255, green: 86 / 255, blue: 214 / 255, alpha: 1)
    /// UIKit's `systemPurple`: 175, 82, 222.
    public static let systemPurple = CGColor(red: 175 / 255, green: 82 / 255, blue: 222 / 255, alpha: 1)
    /// UIKit's `systemPink`: 255, 45, 85.
    public static let systemPink = CGColor(red: 255 / 255, green: 45 / 255, blue: 85 / 255, alpha: 1)
    /// UIKit's `systemGray`: 142, 142, 147.
    public static let systemGray = CGColor(red: 142 / 255, green: 142 / 255, blue: 147 / 255, alpha: 1)
    /// UIKit's `systemGray6`, the lightest grey (a grouped background): 242, 242, 247.
    public static let systemGray6 = CGColor(red: 242 / 255, green: 242 / 255, blue: 247 / 255, alpha: 1)
    /// UIKit's `gray` (`UIColor.grayColor()`): white 0.5.
    public static let gray = CGColor(gray: 0.5, alpha: 1)
    /// UIKit's `darkGray`: white 1/3.
    public static let darkGray = CGColor(gray: 1.0 / 3.0, alpha: 1)
    /// UIKit's `lightGray`: white 2/3.
    public static let lightGray = CGColor(gray: 2.0 / 3.0, alpha: 1)
}

/// UIKit's fixed named colours as `CGColor` constants (`UIColor.red.cgColor` is `CGColor.red` here),
/// with the component values Apple's `UIColor` reference gives for each ("A color object whose RGB
/// values are 1.0, 0.0, and 0.0 and whose alpha value is 1.0" for `red`, and so on).
extension CGColor {
    /// UIKit's `red`: RGB 1, 0, 0.
    public static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    /// UIKit's `green`: RGB 0, 1, 0.
    public static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    /// UIKit's `blue`: RGB 0, 0, 1.
    public static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    /// UIKit's `cyan`: RGB 0, 1, 1.
    public static let cyan = CGColor(red: 0, green: 1, blue: 1, alpha: 1)
    /// UIKit's `yellow`: RGB 1, 1, 0.
    public static let yellow = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
    /// UIKit's `magenta`: RGB 1, 0, 1.
    public static let magenta = CGColor(red: 1, green: 0, blue: 1, alpha: 1)
    /// UIKit's `orange`: RGB 1, 0.5, 0.
    public static let orange = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    /// UIKit's `purple`: RGB 0.5, 0, 0.5.
    public static let purple = CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    /// UIKit's `brown`: RGB 0.6, 0.4, 0.2.
    public static let brown = CGColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
}

import Foundation
import LayercastEngine

/// A colour quantised to 8 bits per channel, written `#rrggbb`, or `#rrggbbaa` when alpha < 255.
public struct DrawColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// `color` rounded per channel; components are clamped to 0…1, non-finite ones read as 0.
    public init(_ color: CGColor) {
        func byte(_ x: CGFloat) -> UInt8 {
            let x = Double(x)
            return x.isFinite ? UInt8((min(max(x, 0), 1) * 255).rounded()) : 0
        }
        self.init(red: byte(color.red), green: byte(color.green), blue: byte(color.blue), alpha: byte(color.alpha))
    }

    /// Parses `#rrggbb` or `#rrggbbaa` (either case of hex digit); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 1, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[i]), let low = Self.nibble(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
    }

    /// Whether anything shows: alpha is not 0.
    public var isVisible: Bool { alpha > 0 }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hex: String {
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
        let channels = alpha == 255 ? 3 : 4
        return String(unsafeUninitializedCapacity: 1 + 2 * channels) { text in
            text[0] = UInt8(ascii: "#")
            for (position, channel) in [red, green, blue, alpha].prefix(channels).enumerated() {
                text[1 + 2 * position] = digit(channel >> 4)
                text[2 + 2 * position] = digit(channel & 15)
            }
            return 1 + 2 * channels
        }
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

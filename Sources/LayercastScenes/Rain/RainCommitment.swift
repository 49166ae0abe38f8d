import Foundation
import LayercastSceneAPI
internal import LayercastDigest

/// What a rain publishes before it starts: a SHA-256 over its seed, its secret salt and its
/// settings, so that anyone can check afterwards that the revealed seed and salt are the ones the
/// rain was played with, while nobody can learn them (or the prize plan) while it runs
/// (docs/protocol.md, "Provably fair rains").
///
/// The hashed text is one line of ASCII, fields in this order, separated by single spaces and
/// ended by a line feed:
/// `layercast-rain/1 seed=7 salt=<64 lowercase hex> duration=20 pool=888 winners=27 minCoins=8
/// maxCoins=88 maxAwardsPerPlayer=15 maxCoinsPerPlayer=161 minVisible=0.3 tapRate=8 width=414
/// height=736`. Integers are decimal; other numbers are written without a decimal point when
/// integral, else as the shortest decimal that reads back as the same double (Python's `repr`).
public struct RainCommitment: Equatable, Sendable {
    /// The hashed line, line feed included.
    public let text: String
    /// SHA-256 of `text`, 64 lowercase hex digits.
    public let digest: String

    /// The version tag that starts the line.
    public static let version = "layercast-rain/1"

    /// The commitment of a rain with `settings` (its salt included) on a screen of `size` points.
    public init(settings: RainSettings, size: CGSize) {
        let fields: [(String, String)] = [
            ("seed", "\(settings.seed)"), ("salt", Self.hex(settings.salt)),
            ("duration", Self.number(settings.duration)), ("pool", "\(settings.pool)"), ("winners", "\(settings.winners)"),
            ("minCoins", "\(settings.minCoins)"), ("maxCoins", "\(settings.maxCoins)"),
            ("maxAwardsPerPlayer", "\(settings.maxAwardsPerPlayer)"), ("maxCoinsPerPlayer", "\(settings.maxCoinsPerPlayer)"),
            ("minVisible", Self.number(settings.minVisible)), ("tapRate", Self.number(settings.tapRate)),
            ("width", Self.number(Double(size.width))), ("height", Self.number(Double(size.height))),
        ]
        text = ([Self.version] + fields.map { "\($0.0)=\($0.1)" }).joined(separator: " ") + "\n"
        digest = Self.hex(SHA256.digest(Array(text.utf8)))
    }

    /// The generator seed of the prize plan of a salted rain: the first 8 bytes, big-endian, of
    /// SHA-256("layercast-prizes/1" ‖ salt ‖ seed as 8 big-endian bytes).
    public static func prizeSeed(_ settings: RainSettings) -> UInt64 {
        var input = Array("layercast-prizes/1".utf8) + settings.salt
        input += (0..<8).reversed().map { UInt8(truncatingIfNeeded: settings.seed >> (8 * UInt64($0))) }
        return SHA256.digest(input).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// 32 bytes from the system's secure generator: a new rain's salt.
    public static func makeSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<RainSettings.saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Lowercase hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The bytes of 2·n lowercase or uppercase hex digits; nil for anything else.
    public static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x57
            case 0x41...0x46: c - 0x37
            default: nil
            }
        }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Integral numbers without a decimal point, others as their shortest round-trip decimal.
    static func number(_ x: Double) -> String {
        x.rounded() == x && abs(x) < 1e15 ? "\(Int64(x))" : "\(x)"
    }
}

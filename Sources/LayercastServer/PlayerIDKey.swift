import Foundation
import LayercastIdentity

/// The key of public player ids when `--player-id-secret` is not given: 32 random bytes kept as
/// hex in `<data>/player-id.key` (mode 0600), made on the first start, so that a player's public
/// id stays the same across restarts. Every node of a cluster must share one key.
enum PlayerIDKey {
    static let fileName = "player-id.key"

    /// The key in `directory`, made when the file is missing.
    static func load(directory: String) throws(ServerError) -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent(fileName)
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let hex = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard hex.utf8.count >= 32, hex.allSatisfy(\.isHexDigit) else {
                throw .configuration("\(path) does not hold a hex key of at least 16 bytes; restore it from a backup (a new key changes every player's public id)")
            }
            return Array(hex.utf8)
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<PlayerPseudonyms.secretBytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data((key + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw .configuration("cannot write the player id key \(path)")
        }
        return Array(key.utf8)
    }
}

import Foundation
import LayercastIdentity
import LayercastLedger

/// The key of public player ids when `--player-id-secret` is not given: 32 random bytes as hex,
/// made on the first start and kept in the ledger (`Ledger.sharedSecret`), so that a player's
/// public id stays the same across restarts and on every node that shares the ledger
/// (docs/cluster.md). A `<data>/player-id.key` from before the ledger kept it is taken into the
/// ledger on the first start, and must agree with it after.
package enum PlayerIDKey {
    static let fileName = "player-id.key"
    /// The ledger's name for it.
    static let secretName = "player-id"

    /// The key `ledger` keeps, adopting `directory`'s key file, or a new key, when it keeps none.
    package static func load(ledger: any Ledger, directory: String) throws(ServerError) -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent(fileName)
        let file = try read(path)
        let kept: String
        do {
            kept = try ledger.sharedSecret(secretName, candidate: file ?? makeKey())
        } catch {
            throw .ledger("cannot read the player id key kept in the ledger \(ledger.address): \(error.message)")
        }
        if let file, file != kept {
            throw .configuration("""
                \(path) holds a key of public player ids that differs from the one the ledger \(ledger.address) keeps \
                (made by the node that started on it first), so a player would have two public ids: remove \(path) to take \
                the ledger's key, or start every node with the same --player-id-secret
                """)
        }
        guard isKey(kept) else {
            throw .configuration("the ledger \(ledger.address) keeps a player id key that is not hex of at least 16 bytes; restore it from a backup")
        }
        return Array(kept.utf8)
    }

    /// The key in the file at `path`; nil when there is no file.
    private static func read(_ path: String) throws(ServerError) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let hex = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard isKey(hex) else {
            throw .configuration("\(path) does not hold a hex key of at least 16 bytes; restore it from a backup (a new key changes every player's public id)")
        }
        return hex
    }

    private static func isKey(_ hex: String) -> Bool {
        hex.utf8.count >= 32 && hex.allSatisfy(\.isHexDigit)
    }

    private static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<PlayerPseudonyms.secretBytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}

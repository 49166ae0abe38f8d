internal import LayercastDigest

/// Turns a player's credential into its public id with a keyed hash, so that an id seen in an
/// award, a leaderboard or a log cannot be used to join as that player, while the same
/// credential always gets the same public id under the same secret.
///
/// The public id is `p-` and the first 8 bytes, in lowercase hex, of
/// HMAC-SHA256(secret, "anon:" + anonymous id) or HMAC-SHA256(secret, "token:" + sub).
/// An anonymous player's name is `Guest-` and the first four hex digits of that public id.
public struct PlayerPseudonyms: Sendable {
    private let secret: [UInt8]
    /// Whether token players are shown by their raw `sub` instead of a public id.
    public let showsTokenSubjects: Bool

    /// The bytes of a secret new servers make: 32 random bytes.
    public static let secretBytes = 32

    /// `secret` must not be empty (precondition).
    public init(secret: [UInt8], showsTokenSubjects: Bool = false) {
        precondition(!secret.isEmpty, "the pseudonym secret is empty")
        self.secret = secret
        self.showsTokenSubjects = showsTokenSubjects
    }

    /// What everyone may see of `identity`.
    public func publicPlayer(_ identity: PlayerIdentity) -> PublicPlayer {
        if identity.isAnonymous {
            let id = publicID(kind: "anon", credential: identity.id)
            return PublicPlayer(id: id, name: "Guest-" + id.dropFirst(2).prefix(4), isAnonymous: true)
        }
        let id = showsTokenSubjects ? identity.id : publicID(kind: "token", credential: identity.id)
        return PublicPlayer(id: id, name: identity.name, isAnonymous: false)
    }

    /// What nodes compare to find that they share the secret without showing it: `k-` and the
    /// first 8 bytes, in lowercase hex, of HMAC-SHA256(secret, "fingerprint:").
    public var fingerprint: String { "k-" + hexMAC("fingerprint:") }

    private func publicID(kind: String, credential: String) -> String {
        "p-" + hexMAC("\(kind):\(credential)")
    }

    /// The first 8 bytes of HMAC-SHA256(secret, `message`), in lowercase hex.
    private func hexMAC(_ message: String) -> String {
        let mac = HMACSHA256.code(key: secret, message: Array(message.utf8))
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: mac.prefix(8).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}

import Foundation

/// Who a `player` connection is: a player id the embedding app vouched for with a signed token
/// (`TokenVerifier`), or an anonymous id the page made up and keeps in localStorage.
///
/// `expires` is the token's `exp` for signed players and nil for anonymous ones.
public struct PlayerIdentity: Equatable, Sendable {
    /// The player id: a token's `sub` (1–64 of `A–Z a–z 0–9 _ . : -`, never starting with
    /// `anon-`), or an anonymous id (`anon-` + 16–64 of `A–Z a–z 0–9 _ -`).
    public let id: String
    /// The display name, trimmed: 1–32 Unicode scalars, no control characters.
    public let name: String
    /// When the token stops being valid (whole seconds); nil for anonymous players.
    public let expires: Date?

    public init(id: String, name: String, expires: Date?) {
        self.id = id
        self.name = name
        self.expires = expires
    }

    /// True for identities made from an anonymous id (those without an expiry).
    public var isAnonymous: Bool { expires == nil }
}

// MARK: - Anonymous players

extension PlayerIdentity {
    /// The prefix of every anonymous id. Token `sub`s may not start with it (in any case), so an
    /// anonymous page can never claim a signed player's id.
    public static let anonymousPrefix = "anon-"

    /// Whether `id` is a well-formed anonymous id: `anon-` followed by 16–64 characters of
    /// `A–Z a–z 0–9 _ -` (so at least 96 bits if random base64url; the page makes 22 from 16
    /// random bytes). The server validates the `player=` query parameter with this.
    public static func isValidAnonymousID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard utf8.starts(with: anonymousPrefix.utf8) else { return false }
        let rest = utf8.dropFirst(anonymousPrefix.utf8.count)
        return (16...64).contains(rest.count) && rest.allSatisfy(Base64URL.isAlphabet)
    }

    /// The identity of an anonymous player, or nil when `id` is not a valid anonymous id. The
    /// display name is `Guest-` and the first four characters after `anon-` (`anon-Xy3k…` →
    /// `Guest-Xy3k`), so guests are told apart on screen.
    public init?(anonymousID id: String) {
        guard Self.isValidAnonymousID(id) else { return nil }
        let tag = id.dropFirst(Self.anonymousPrefix.count).prefix(4)
        self.init(id: id, name: "Guest-\(tag)", expires: nil)
    }

    /// A fresh anonymous id: `anon-` + 22 base64url characters of 16 random bytes (what the page
    /// does with `crypto.getRandomValues`; here for tools and tests).
    public static func makeAnonymousID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return anonymousPrefix + Base64URL.encode(bytes)
    }
}

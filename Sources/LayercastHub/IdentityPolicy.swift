import Foundation
import LayercastIdentity
import LayercastSceneAPI
import LayercastWire

/// How `player` joins prove who they are (protocol.md, "Player tokens"): a token signed with
/// `--token-secret`, or, when anonymous play is allowed, a secret `anon-…` id the page keeps; and
/// what everyone else sees of them (`PlayerPseudonyms`).
public struct IdentityPolicy: Sendable {
    /// A player that joined: what everyone sees, and the anonymous id the server made up for a
    /// join that brought none (told to that player alone, in its `welcome`).
    public struct Joined: Sendable {
        public let player: PublicPlayer
        public let mintedSecret: String?
    }

    let verifier: TokenVerifier?
    let allowAnonymous: Bool
    let pseudonyms: PlayerPseudonyms

    /// The fingerprint of the key of public player ids (`PlayerPseudonyms.fingerprint`).
    public var keyFingerprint: String { pseudonyms.fingerprint }

    public init(tokenSecret: String?, allowAnonymous: Bool, pseudonyms: PlayerPseudonyms) {
        verifier = tokenSecret.map { TokenVerifier(secret: $0) }
        self.allowAnonymous = allowAnonymous
        self.pseudonyms = pseudonyms
    }

    /// The player of a join's `token` or `player` argument at `now`. A `token` that is present
    /// is checked whatever else is allowed (an empty or unreadable one is `bad_token`); a join
    /// with neither gets a fresh anonymous id when anonymous play is allowed.
    public func identify(token: String?, player: String?, now: Date) -> Result<Joined, ProtocolError> {
        if let token {
            return verify(token: token, now: now).map { Joined(player: pseudonyms.publicPlayer($0), mintedSecret: nil) }
        }
        guard allowAnonymous else {
            return .failure(ProtocolError(.tokenRequired, "this server requires a player token signed by the app (?token=…); see docs/protocol.md"))
        }
        guard let player else {
            let secret = PlayerIdentity.makeAnonymousID()
            return .success(Joined(player: pseudonyms.publicPlayer(PlayerIdentity(anonymousID: secret)!), mintedSecret: secret))
        }
        guard let identity = PlayerIdentity(anonymousID: player) else {
            return .failure(ProtocolError(.badPlayer, "player must be \"anon-\" followed by 16–64 of A–Z a–z 0–9 _ - (the secret id the page keeps, not a public p-… id)"))
        }
        return .success(Joined(player: pseudonyms.publicPlayer(identity), mintedSecret: nil))
    }

    /// The player a credential names (`Authorization: Bearer` of `GET /api/me`): a token, or an
    /// anonymous id where anonymous play is allowed.
    public func player(credential: String, now: Date) -> Result<PublicPlayer, ProtocolError> {
        if allowAnonymous, let identity = PlayerIdentity(anonymousID: credential) {
            return .success(pseudonyms.publicPlayer(identity))
        }
        return verify(token: credential, now: now).map(pseudonyms.publicPlayer)
    }

    private func verify(token: String, now: Date) -> Result<PlayerIdentity, ProtocolError> {
        guard let verifier else {
            return .failure(ProtocolError(.badToken, "this server takes no tokens (it was started without --token-secret); join with player=anon-… or nothing"))
        }
        return verifier.verify(token, now: now).mapError { ProtocolError(.badToken, $0.message) }
    }
}

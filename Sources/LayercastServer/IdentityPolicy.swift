import Foundation
import LayercastIdentity
import LayercastWire

/// How `player` joins prove who they are (protocol.md, "Player tokens"): a token signed with
/// `--token-secret`, or, when anonymous play is allowed, an `anon-…` id the page keeps.
struct IdentityPolicy {
    let verifier: TokenVerifier?
    let allowAnonymous: Bool

    init(tokenSecret: String?, allowAnonymous: Bool) {
        verifier = tokenSecret.map { TokenVerifier(secret: $0) }
        self.allowAnonymous = allowAnonymous
    }

    /// The identity for a player join's `token` or `player` argument at `now`; a join with
    /// neither gets a fresh anonymous id when anonymous play is allowed.
    func identify(token: String?, player: String?, now: Date) -> Result<PlayerIdentity, ProtocolError> {
        if let token {
            guard let verifier else {
                return .failure(ProtocolError(.badToken, "this server takes no tokens (it was started without --token-secret); join with player=anon-… or nothing"))
            }
            return verifier.verify(token, now: now).mapError { ProtocolError(.badToken, $0.message) }
        }
        guard allowAnonymous else {
            return .failure(ProtocolError(.tokenRequired, "this server requires a player token signed by the app (?token=…); see docs/protocol.md"))
        }
        guard let player else { return .success(PlayerIdentity(anonymousID: PlayerIdentity.makeAnonymousID())!) }
        guard let identity = PlayerIdentity(anonymousID: player) else {
            return .failure(ProtocolError(.badPlayer, "player must be \"anon-\" followed by 16–64 of A–Z a–z 0–9 _ -"))
        }
        return .success(identity)
    }
}

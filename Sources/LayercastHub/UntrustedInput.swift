import Foundation
import LayercastIdentity
import LayercastWire

/// The hub's parsers of untrusted requests, reachable from outside the module for the fuzz
/// targets (Fuzz/) without exposing the request types. Each runs the real parser and answers
/// only how it ended. (A scene's command bodies are its own: `UntrustedCommandBody`.)
public enum UntrustedInput {
    /// How a parse ended: accepted, or refused with an error code (a WebSocket join is refused in
    /// an `error` message, with no HTTP status).
    public enum Outcome: Equatable, Sendable {
        case accepted
        case refused(code: String)
    }

    /// A WebSocket join's query arguments (already URL-decoded, as libwebsockets hands them
    /// over), checked as `/ws` checks them at `now`; `tokenSecret` nil: the server takes no tokens.
    public static func join(_ arguments: [String: String], tokenSecret: String?, allowAnonymous: Bool, now: Date) -> Outcome {
        let identities = IdentityPolicy(tokenSecret: tokenSecret, allowAnonymous: allowAnonymous,
                                        pseudonyms: PlayerPseudonyms(secret: Array("fuzz-pseudonyms".utf8)))
        switch JoinRequest.parse(arguments, identities: identities, now: now) {
        case .success: return .accepted
        case .failure(let error): return .refused(code: error.code.rawValue)
        }
    }
}

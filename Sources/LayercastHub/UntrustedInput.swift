import Foundation
import LayercastIdentity
import LayercastScenes
import LayercastWire

/// The server's parsers of untrusted requests, reachable from outside the module for the fuzz
/// targets (Fuzz/) without exposing the request types. Each runs the real parser and answers
/// only how it ended.
public enum UntrustedInput {
    /// How a parse ended: accepted, or refused with an error code and, for the HTTP API, the
    /// status it is answered with (nil for a WebSocket join, refused in an `error` message).
    public enum Outcome: Equatable, Sendable {
        case accepted
        case refused(code: String, status: UInt32?)
    }

    /// A WebSocket join's query arguments (already URL-decoded, as libwebsockets hands them
    /// over), checked as `/ws` checks them at `now`; `tokenSecret` nil: the server takes no tokens.
    public static func join(_ arguments: [String: String], tokenSecret: String?, allowAnonymous: Bool, now: Date) -> Outcome {
        let identities = IdentityPolicy(tokenSecret: tokenSecret, allowAnonymous: allowAnonymous,
                                        pseudonyms: PlayerPseudonyms(secret: Array("fuzz-pseudonyms".utf8)))
        switch JoinRequest.parse(arguments, identities: identities, now: now) {
        case .success: return .accepted
        case .failure(let error): return .refused(code: error.code.rawValue, status: nil)
        }
    }

    /// The body of `POST /api/rooms/{room}/rain`, with the built-in defaults.
    public static func rainBody(_ body: [UInt8]) -> Outcome {
        outcome(RainRequest.order(from: body, defaults: RainRequest.Order(settings: RainSettings()), seed: 1))
    }

    /// The body of `POST /api/rooms/{room}/snow`, over the snow scene's defaults.
    public static func snowBody(_ body: [UInt8]) -> Outcome {
        outcome(SnowRequest.settings(from: body, current: SnowSettings()))
    }

    private static func outcome<T>(_ result: Result<T, APIError>) -> Outcome {
        switch result {
        case .success: return .accepted
        case .failure(let error): return .refused(code: error.code.rawValue, status: error.status)
        }
    }
}

/// Why a player token was refused. `message` is written for the person integrating Layercast
/// (it is sent to the client in the `error` message) and never contains the secret.
public struct TokenError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not `<base64url payload>.<base64url signature>`, too long, or the signed payload is
        /// not a JSON object.
        case malformed
        /// The signature is not HMAC-SHA256 of the payload part under the server's secret:
        /// tampered, or signed with another secret.
        case badSignature = "bad_signature"
        /// The current time is at or after `exp`.
        case expired
        /// The payload is a JSON object but a claim is missing or invalid (`sub`, `name`, `exp`,
        /// `iat`), or `exp` is further ahead than the verifier's maximum lifetime.
        case badClaims = "bad_claims"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

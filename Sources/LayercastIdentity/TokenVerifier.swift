import Foundation
import LayercastJSON
internal import LayercastDigest

/// Checks player tokens signed by the embedding app (see "Player tokens" in docs/protocol.md):
///
///     <base64url(payload JSON)>.<base64url(HMAC-SHA256(secret, ASCII bytes of the first part))>
///
/// base64url is RFC 4648 §5 without padding. The order of checks is fixed: size and shape,
/// base64url of both parts, then the signature (constant time), and only then is the payload
/// parsed as JSON and its claims checked, then the expiry, then the maximum lifetime.
public struct TokenVerifier: Sendable {
    /// Longer tokens are refused (`malformed`) before any other work.
    public static let maximumTokenLength = 2048
    /// The default for `maximumLifetime`: 30 days.
    public static let defaultMaximumLifetime: TimeInterval = 30 * 86_400

    private let secret: [UInt8]
    /// A token whose `exp` is more than this many seconds after `now` is refused (`badClaims`),
    /// so a leaked token cannot live for years and an `exp` written in milliseconds is caught.
    /// nil: no limit.
    public let maximumLifetime: TimeInterval?

    /// `secret`: the HMAC key, the raw bytes. Must not be empty.
    public init(secret: some DataProtocol, maximumLifetime: TimeInterval? = TokenVerifier.defaultMaximumLifetime) {
        precondition(!secret.isEmpty, "LayercastIdentity: the token secret must not be empty")
        self.secret = Array(secret)
        self.maximumLifetime = maximumLifetime
    }

    /// `secret`: the HMAC key is the UTF-8 bytes of this string (what `--token-secret` gives).
    public init(secret: String, maximumLifetime: TimeInterval? = TokenVerifier.defaultMaximumLifetime) {
        self.init(secret: Array(secret.utf8), maximumLifetime: maximumLifetime)
    }

    /// The identity `token` vouches for at `now`, or why it is refused.
    public func verify(_ token: String, now: Date) -> Result<PlayerIdentity, TokenError> {
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maximumTokenLength else {
            return .failure(TokenError(
                .malformed, "token is \(bytes.count) bytes long; at most \(Self.maximumTokenLength) are allowed"))
        }
        guard !bytes.isEmpty else { return .failure(TokenError(.malformed, "token is empty")) }

        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            let found = parts.count == 1 ? "no \".\"" : "\(parts.count - 1) \".\""
            return .failure(TokenError(
                .malformed, "token must be <payload>.<signature>, two base64url parts joined by one \".\"; it has \(found)"))
        }
        let payloadPart = parts[0]
        let signaturePart = parts[1]

        let payloadBytes: [UInt8]
        switch Self.decode(payloadPart, part: "payload") {
        case .success(let decoded): payloadBytes = decoded
        case .failure(let error): return .failure(error)
        }
        let signature: [UInt8]
        switch Self.decode(signaturePart, part: "signature") {
        case .success(let decoded): signature = decoded
        case .failure(let error): return .failure(error)
        }
        guard signature.count == HMACSHA256.byteCount else {
            return .failure(TokenError(
                .malformed,
                "token signature must be 32 bytes (43 base64url characters); it is \(signature.count) bytes"))
        }

        guard HMACSHA256.isValid(signature, key: secret, message: Array(payloadPart)) else {
            return .failure(TokenError(.badSignature, "token signature does not match"))
        }

        // Signed by someone holding the secret: now read what they wrote.
        let parsed = payloadBytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in try JSONValue.parse(bytes: raw) }
        }
        let payload: JSONValue
        switch parsed {
        case .success(let value): payload = value
        case .failure(let error):
            return .failure(TokenError(.malformed, "token payload is not JSON: \(error.message)"))
        }
        guard case .object = payload else {
            return .failure(TokenError(.malformed, "token payload must be a JSON object, not \(payload.typeName)"))
        }
        return claims(of: payload, now: now)
    }

    private func claims(of payload: JSONValue, now: Date) -> Result<PlayerIdentity, TokenError> {
        func string(_ claim: String) -> Result<String, TokenError> {
            guard let value = payload[claim] else {
                return .failure(TokenError(.badClaims, "token payload: \(claim) is missing"))
            }
            guard let text = value.stringValue else {
                return .failure(TokenError(.badClaims, "token payload: \(claim) must be a string, not \(value.typeName)"))
            }
            return .success(text)
        }

        let id: String
        switch string("sub") {
        case .success(let value): id = value
        case .failure(let error): return .failure(error)
        }
        if let error = Claims.checkID(id) { return .failure(error) }

        let name: String
        switch string("name").flatMap(Claims.checkName) {
        case .success(let value): name = value
        case .failure(let error): return .failure(error)
        }

        guard let expValue = payload["exp"] else {
            return .failure(TokenError(.badClaims, "token payload: exp is missing"))
        }
        let exp: Int
        switch Claims.timestamp(expValue, claim: "exp") {
        case .success(let value): exp = value
        case .failure(let error): return .failure(error)
        }
        if let iat = payload["iat"], case .failure(let error) = Claims.timestamp(iat, claim: "iat") {
            return .failure(error)
        }

        let nowSeconds = now.timeIntervalSince1970
        // Valid while now < exp: at exp itself the token has expired.
        guard nowSeconds < Double(exp) else {
            return .failure(TokenError(.expired, "token expired at \(iso8601(unixSeconds: exp))"))
        }
        if let maximumLifetime, Double(exp) - nowSeconds > maximumLifetime {
            return .failure(TokenError(
                .badClaims,
                "token payload: exp \(iso8601(unixSeconds: exp)) is more than \(Self.describe(maximumLifetime)) from now"
                    + " (exp is unix seconds, not milliseconds)"))
        }
        return .success(PlayerIdentity(id: id, name: name, expires: Date(timeIntervalSince1970: Double(exp))))
    }

    private static func decode(_ part: ArraySlice<UInt8>, part name: String) -> Result<[UInt8], TokenError> {
        guard !part.isEmpty else { return .failure(TokenError(.malformed, "token \(name) is empty")) }
        let prefix = "token \(name) is not base64url (RFC 4648 §5, without padding)"
        switch Base64URL.decode(part) {
        case .success(let bytes):
            return .success(bytes)
        case .failure(.badCharacter(let byte, _)):
            let shown = byte >= 0x21 && byte < 0x7F
                ? "\"\(Character(Unicode.Scalar(byte)))\"" : Claims.codePoint(Unicode.Scalar(byte))
            let hint = byte == UInt8(ascii: "=") ? " (leave out the = padding)"
                : (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")) ? " (use - and _ for + and /)" : ""
            return .failure(TokenError(.malformed, "\(prefix): it contains \(shown)\(hint)"))
        case .failure(.badLength):
            return .failure(TokenError(.malformed, "\(prefix): its length (\(part.count)) is not possible"))
        case .failure(.nonCanonical):
            return .failure(TokenError(.malformed, "\(prefix): its last character has unused bits set"))
        }
    }

    private static func describe(_ interval: TimeInterval) -> String {
        let seconds = Int(interval)
        if Double(seconds) == interval, seconds % 86_400 == 0 {
            return seconds == 86_400 ? "1 day" : "\(seconds / 86_400) days"
        }
        return "\(interval) seconds"
    }
}

import Foundation
import LayercastJSON
internal import LayercastDigest

/// Makes player tokens (what the embedding app does; here for tests and tools).
public enum TokenSigner {
    /// A token for `id` and `name` that expires at `expires` (rounded down to whole seconds),
    /// with `iat` when `issuedAt` is given. The payload is compact JSON with the members in the
    /// order `sub`, `name`, `iat`, `exp`; the name is trimmed.
    ///
    /// Throws `badClaims` when `TokenVerifier` would refuse these claims (bad id or name, a time
    /// outside 1...253402300799), so a tool cannot hand out tokens that never verify.
    public static func sign(
        id: String, name: String, expires: Date, issuedAt: Date? = nil, secret: some DataProtocol
    ) throws(TokenError) -> String {
        if let error = Claims.checkID(id) { throw error }
        let trimmed = try Claims.checkName(name).get()
        var members: [(String, JSONValue)] = [("sub", .string(id)), ("name", .string(trimmed))]
        if let issuedAt {
            let iat = try seconds(issuedAt, claim: "iat")
            members.append(("iat", .number(Double(iat))))
        }
        let exp = try seconds(expires, claim: "exp")
        members.append(("exp", .number(Double(exp))))
        return sign(payload: JSONValue.object(JSONObject(members)).serialized(), secret: secret)
    }

    /// `sign(id:name:expires:issuedAt:secret:)` with the UTF-8 bytes of `secret` as the key.
    public static func sign(
        id: String, name: String, expires: Date, issuedAt: Date? = nil, secret: String
    ) throws(TokenError) -> String {
        try sign(id: id, name: name, expires: expires, issuedAt: issuedAt, secret: Array(secret.utf8))
    }

    /// The token for any payload text, unchecked: `base64url(UTF-8 of payload) + "." +
    /// base64url(HMAC-SHA256(secret, the first part's ASCII bytes))`.
    public static func sign(payload: String, secret: some DataProtocol) -> String {
        let first = Base64URL.encode(Array(payload.utf8))
        let mac = HMACSHA256.code(key: Array(secret), message: Array(first.utf8))
        return first + "." + Base64URL.encode(mac)
    }

    private static func seconds(_ date: Date, claim: String) throws(TokenError) -> Int {
        let value = date.timeIntervalSince1970
        guard value.isFinite, value >= 1, value < Double(Claims.maximumTimestamp + 1) else {
            throw TokenError(.badClaims, "token payload: \(claim) must be an integer number of unix seconds (1 to 253402300799)")
        }
        return Int(value)  // whole seconds, rounded down (value > 0)
    }
}

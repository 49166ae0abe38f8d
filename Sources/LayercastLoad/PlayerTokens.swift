import Foundation
import LayercastIdentity

/// The signed tokens the tool's players join with: player `loadtest-K` named `Load K`
/// (K the client's index from 1), signed with `--token-secret` like an embedding app would.
public enum PlayerTokens {
    /// Client `index`'s token, valid until `expires` (the end of the run plus an hour).
    public static func token(index: Int, secret: String, expires: Date) throws(TokenError) -> String {
        try TokenSigner.sign(id: "loadtest-\(index + 1)", name: "Load \(index + 1)", expires: expires, secret: secret)
    }
}

import Foundation
import LayercastJSON

/// The claim rules shared by `TokenVerifier` and `TokenSigner`.
enum Claims {
    static let maximumIDLength = 64
    static let maximumNameLength = 32
    /// `exp` and `iat` must lie in 1...this (9999-12-31T23:59:59Z).
    static let maximumTimestamp = 253_402_300_799

    static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: ":"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    static func checkID(_ id: String) -> TokenError? {
        let utf8 = id.utf8
        guard (1...maximumIDLength).contains(utf8.count), utf8.allSatisfy(isIDByte) else {
            return TokenError(.badClaims, "token payload: sub must be 1–64 characters of A–Z a–z 0–9 _ . : -")
        }
        if id.lowercased().hasPrefix(PlayerIdentity.anonymousPrefix) {
            return TokenError(.badClaims, "token payload: sub must not begin with \"anon-\" (kept for anonymous players)")
        }
        return nil
    }

    /// The trimmed name, or why it is refused.
    static func checkName(_ name: String) -> Result<String, TokenError> {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let count = trimmed.unicodeScalars.count
        guard (1...maximumNameLength).contains(count) else {
            return .failure(TokenError(
                .badClaims, "token payload: name must be 1–32 characters after trimming spaces (it has \(count))"))
        }
        if let bad = trimmed.unicodeScalars.first(where: isForbiddenInName) {
            return .failure(TokenError(
                .badClaims, "token payload: name must not contain control characters (it has \(codePoint(bad)))"))
        }
        return .success(trimmed)
    }

    /// Control characters (C0, DEL, C1), line and paragraph separators, and the bidirectional
    /// embeddings, overrides and isolates that would reorder the text shown around a name.
    static func isForbiddenInName(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// An integral timestamp claim in 1...maximumTimestamp, or why not.
    static func timestamp(_ value: JSONValue, claim: String) -> Result<Int, TokenError> {
        guard let seconds = value.intValue, (1...maximumTimestamp).contains(seconds) else {
            return .failure(TokenError(
                .badClaims, "token payload: \(claim) must be an integer number of unix seconds (1 to 253402300799)"))
        }
        return .success(seconds)
    }
}

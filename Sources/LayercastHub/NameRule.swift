/// The rules for names a client picks and the server echoes: room names and scene ids are
/// 1–32 of `A–Z a–z 0–9 _ -`; a player id in an API path is 1–128 of `A–Z a–z 0–9 _ . : -` (every
/// token `sub` and anonymous id fits). ASCII only, so no name can carry a line break, a quote or
/// a look-alike letter into a log line, a header or a page.
public enum NameRule {
    /// The rule in words, for error messages and docs/protocol.md.
    public static let description = "1–32 of A–Z a–z 0–9 _ -"

    public static func isValid(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy(isNameByte)
    }

    /// Whether `id` may be looked up as a player (`GET /api/players/{id}`).
    public static func isPlayerID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { isNameByte($0) || $0 == 0x2E || $0 == 0x3A }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2D
    }
}

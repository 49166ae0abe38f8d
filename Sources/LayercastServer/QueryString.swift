/// The query of a request target as the client sent it, decoded here rather than by lws (which
/// cuts a value at an encoded line break, so `room=lobby%0d%0aSet-Cookie:x=` would arrive as
/// `lobby`): `&` or `;` between arguments, the first `=` between name and value, `+` a space,
/// `%XX` a byte; the first of repeated names wins. Bytes that are not UTF-8 become U+FFFD.
enum QueryString {
    static func arguments(of target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var arguments: [String: String] = [:]
        for part in target[target.index(after: mark)...].split(whereSeparator: { $0 == "&" || $0 == ";" }).prefix(16) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decoded(pieces[0])
            if arguments[name] == nil { arguments[name] = pieces.count == 2 ? decoded(pieces[1]) : "" }
        }
        return arguments
    }

    static func decoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = hex(utf8[utf8.startIndex]),
               let low = hex(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

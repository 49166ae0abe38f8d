/// base64url without padding (RFC 4648 §5), strict: decoding accepts exactly what `encode`
/// writes, so every byte string has one spelling.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func isAlphabet(_ byte: UInt8) -> Bool { value(of: byte) != nil }

    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if second != nil { out.append(alphabet[Int(group >> 6 & 63)]) }
            if third != nil { out.append(alphabet[Int(group & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    enum DecodingError: Error, Equatable {
        /// A byte outside the alphabet (`=`, `+`, `/`, whitespace, ...), at this offset.
        case badCharacter(UInt8, offset: Int)
        /// A length of 4n+1 characters, which no byte string encodes to.
        case badLength
        /// The last character has bits set that encode nothing (a second spelling).
        case nonCanonical
    }

    static func decode<Chars: Collection<UInt8>>(_ text: Chars) -> Result<[UInt8], DecodingError> {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, char) in text.enumerated() {
            guard let sextet = value(of: char) else { return .failure(.badCharacter(char, offset: offset)) }
            accumulator = accumulator << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        if text.count % 4 == 1 { return .failure(.badLength) }
        if accumulator != 0 { return .failure(.nonCanonical) }
        return .success(out)
    }
}

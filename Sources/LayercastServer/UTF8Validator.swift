/// Checks that bytes arriving in pieces are UTF-8 (RFC 3629 §4: no overlong forms, no surrogates,
/// nothing above U+10FFFF), failing at the first byte that cannot be. A text message's fragments
/// go through one validator, so a character may be split between them (RFC 6455 §8.1).
struct UTF8Validator {
    /// Continuation bytes the current character still needs.
    private var needed: UInt8 = 0
    /// The range of the next continuation byte (narrower after E0, ED, F0 and F4).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Whether the bytes so far end between two characters: a message may end here.
    var isBetweenCharacters: Bool { needed == 0 }

    /// Takes the next bytes; false when they cannot continue UTF-8 text.
    mutating func take(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if needed > 0 {
                guard (low...high).contains(byte) else { return false }
                needed -= 1
                (low, high) = (0x80, 0xBF)
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: (needed, low, high) = (1, 0x80, 0xBF)
            case 0xE0: (needed, low, high) = (2, 0xA0, 0xBF)
            case 0xED: (needed, low, high) = (2, 0x80, 0x9F)
            case 0xE1...0xEF: (needed, low, high) = (2, 0x80, 0xBF)
            case 0xF0: (needed, low, high) = (3, 0x90, 0xBF)
            case 0xF1...0xF3: (needed, low, high) = (3, 0x80, 0xBF)
            case 0xF4: (needed, low, high) = (3, 0x80, 0x8F)
            default: return false
            }
        }
        return true
    }
}

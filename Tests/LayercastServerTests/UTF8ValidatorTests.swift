import Testing
@testable import LayercastServer

/// `UTF8Validator` against RFC 3629's table of well-formed sequences and against Swift's own
/// decoder on every split of the same bytes.
@Suite struct UTF8ValidatorTests {
    /// Whether `bytes` taken in the pieces `cuts` make whole UTF-8 text.
    func isText(_ bytes: [UInt8], cuts: [Int] = []) -> Bool {
        var validator = UTF8Validator()
        var start = 0
        for end in cuts + [bytes.count] {
            guard validator.take(bytes[start..<end]) else { return false }
            start = end
        }
        return validator.isBetweenCharacters
    }

    @Test(arguments: [
        ("ASCII", Array("{\"type\":\"tap\"}".utf8)),
        ("two bytes, lowest (U+0080)", [0xC2, 0x80]),
        ("three bytes, lowest (U+0800)", [0xE0, 0xA0, 0x80]),
        ("last before the surrogates (U+D7FF)", [0xED, 0x9F, 0xBF]),
        ("first after the surrogates (U+E000)", [0xEE, 0x80, 0x80]),
        ("four bytes, lowest (U+10000)", [0xF0, 0x90, 0x80, 0x80]),
        ("highest (U+10FFFF)", [0xF4, 0x8F, 0xBF, 0xBF]),
        ("红包 €😀", Array("红包 €😀".utf8)),
    ] as [(String, [UInt8])])
    func wellFormedTextPasses(_ name: String, _ bytes: [UInt8]) {
        #expect(isText(bytes), "\(name)")
    }

    @Test(arguments: [
        ("lone FF", [0x41, 0xFF]),
        ("lone continuation byte", [0x80]),
        ("overlong slash (C0 AF)", [0xC0, 0xAF]),
        ("overlong two-byte (C1 BF)", [0xC1, 0xBF]),
        ("overlong three-byte (E0 9F BF)", [0xE0, 0x9F, 0xBF]),
        ("overlong four-byte (F0 8F BF BF)", [0xF0, 0x8F, 0xBF, 0xBF]),
        ("high surrogate (ED A0 80)", [0xED, 0xA0, 0x80]),
        ("low surrogate (ED BF BF)", [0xED, 0xBF, 0xBF]),
        ("above U+10FFFF (F4 90 80 80)", [0xF4, 0x90, 0x80, 0x80]),
        ("F5 lead byte", [0xF5, 0x80, 0x80, 0x80]),
        ("truncated three-byte at the end", [0x41, 0xE2, 0x82]),
        ("continuation missing in the middle", [0xE2, 0x41, 0x82]),
    ] as [(String, [UInt8])])
    func malformedTextFails(_ name: String, _ bytes: [UInt8]) {
        #expect(!isText(bytes), "\(name)")
    }

    @Test func aCharacterSplitBetweenPiecesIsWhole() {
        let bytes = Array("a€😀b".utf8)
        for cut in 0...bytes.count {
            #expect(isText(bytes, cuts: [cut]), "cut at \(cut)")
        }
        #expect(isText(bytes, cuts: [2, 3, 5, 6, 7]))
    }

    @Test func agreesWithSwiftsDecoderOnEveryTwoByteInputAndTheirSplits() {
        for a in 0...255 {
            for b in stride(from: 0, through: 255, by: 5) {
                let bytes: [UInt8] = [UInt8(a), UInt8(b), 0x80, 0x41]
                let expected = String(validating: bytes, as: UTF8.self) != nil
                #expect(isText(bytes) == expected, "\(bytes)")
                #expect(isText(bytes, cuts: [1, 3]) == expected, "\(bytes) in pieces")
            }
        }
    }
}

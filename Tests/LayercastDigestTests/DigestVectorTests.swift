import LayercastDigest
import Testing

/// SHA-256 and HMAC-SHA256 against the published vectors (FIPS 180-2 appendix B, RFC 4231).
@Suite struct DigestVectorTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test func sha256MatchesFIPSVectors() {
        #expect(Self.hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")  // two blocks
    }

    @Test func hmacMatchesRFC4231() {
        // Test case 1
        #expect(Self.hex(HMACSHA256.code(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2
        #expect(Self.hex(HMACSHA256.code(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block is hashed first.
        #expect(Self.hex(HMACSHA256.code(key: [UInt8](repeating: 0xaa, count: 131),
                                         message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // An empty key and message (Python's hmac).
        #expect(Self.hex(HMACSHA256.code(key: [], message: [])) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func onlyTheWholeCodeIsValid() {
        let key = Array("Jefe".utf8), message = Array("what do ya want for nothing?".utf8)
        let code = HMACSHA256.code(key: key, message: message)
        #expect(HMACSHA256.isValid(code, key: key, message: message))
        #expect(!HMACSHA256.isValid(code, key: key, message: message + [0]))
        // (A key with zero bytes appended is the same key: HMAC pads short keys with zeros.)
        #expect(!HMACSHA256.isValid(code, key: key + [1], message: message))
        for i in code.indices {
            var changed = code
            changed[i] ^= 1
            #expect(!HMACSHA256.isValid(changed, key: key, message: message))
        }
        #expect(!HMACSHA256.isValid(Array(code.prefix(31)), key: key, message: message))
        #expect(!HMACSHA256.isValid(code + [0], key: key, message: message))
        #expect(!HMACSHA256.isValid([], key: key, message: message))
    }
}

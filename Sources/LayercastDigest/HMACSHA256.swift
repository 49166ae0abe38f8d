internal import CLibCrypto

/// HMAC-SHA256 (RFC 2104), computed by OpenSSL's libcrypto.
public enum HMACSHA256 {
    /// The length of an authentication code in bytes.
    public static let byteCount = SHA256.byteCount

    /// The 32-byte authentication code of `message` under `key` (any length, empty included).
    public static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: byteCount)
        // libcrypto's HMAC refuses a NULL key, which an empty array may give: an empty key is
        // passed as a pointer to one byte with a length of 0.
        let keyBytes = key.isEmpty ? [0] : key
        let done = keyBytes.withUnsafeBytes { keyPointer in
            message.withUnsafeBufferPointer { input in
                code.withUnsafeMutableBufferPointer { output in
                    HMAC(EVP_sha256(), keyPointer.baseAddress, Int32(key.count), input.baseAddress, input.count, output.baseAddress, nil)
                }
            }
        }
        precondition(done != nil, "LayercastDigest: libcrypto's HMAC failed")
        return code
    }

    /// Whether `code` is the authentication code of `message` under `key`, compared in constant
    /// time (CRYPTO_memcmp), so the time taken tells nothing of how much of `code` matched.
    public static func isValid(_ code: [UInt8], key: [UInt8], message: [UInt8]) -> Bool {
        let expected = self.code(key: key, message: message)
        guard code.count == expected.count else { return false }
        return CRYPTO_memcmp(code, expected, expected.count) == 0
    }
}

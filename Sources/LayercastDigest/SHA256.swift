internal import CLibCrypto

/// SHA-256 (FIPS 180-4), computed by OpenSSL's libcrypto.
public enum SHA256 {
    /// The length of a digest in bytes.
    public static let byteCount = 32

    /// The 32-byte digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        let done = message.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, nil, EVP_sha256(), nil)
            }
        }
        precondition(done == 1, "LayercastDigest: libcrypto's EVP_Digest failed")
        return digest
    }
}

/// FNV-1a, 64 bits: a cheap, non-cryptographic digest of a file's bytes for its ETag.
enum FNV1a {
    /// The FNV-1a 64 hash of `bytes`.
    static func hash64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash as 16 lower-case hex digits.
    static func hex64(_ bytes: [UInt8]) -> String {
        let hex = String(hash64(bytes), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

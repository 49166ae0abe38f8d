/// The header of an unmasked, final WebSocket text frame from a server (RFC 6455 §5.2): 2, 4 or
/// 10 bytes, with RSV1 set when the payload is permessage-deflate compressed (RFC 7692 §6).
struct FrameHeader {
    /// The header's bytes; the first `count` are used.
    private(set) var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let count: Int

    init(textLength length: Int, compressed: Bool) {
        bytes.0 = 0x81 | (compressed ? 0x40 : 0)  // FIN, [RSV1], opcode 1 (text)
        if length < 126 {
            count = 2
            bytes.1 = UInt8(length)
        } else if length < 65536 {
            count = 4
            bytes.1 = 126
            bytes.2 = UInt8(length >> 8)
            bytes.3 = UInt8(length & 0xff)
        } else {
            count = 10
            bytes.1 = 127
            withUnsafeMutableBytes(of: &bytes) { raw in
                for index in 0..<8 { raw[2 + index] = UInt8((UInt64(length) >> (56 - 8 * UInt64(index))) & 0xff) }
            }
        }
    }

    /// Writes the header into the `count` bytes that end at `payload`.
    func write(before payload: UnsafeMutablePointer<UInt8>) {
        withUnsafeBytes(of: bytes) { raw in
            (payload - count).update(from: raw.bindMemory(to: UInt8.self).baseAddress!, count: count)
        }
    }
}

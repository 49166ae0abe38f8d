import CZlib

/// Compresses messages for permessage-deflate (RFC 7692) without context takeover: each message
/// is a raw DEFLATE stream of its own, flushed with `Z_SYNC_FLUSH` and without its final
/// 00 00 FF FF (§7.2.1), so every client that negotiated the extension can be sent the same
/// bytes. One deflater serves one thread; its zlib state is reused from message to message.
final class MessageDeflater {
    private var stream = z_stream()
    private var output: [UInt8] = []

    /// zlib's level 6 (its default) and memLevel 9: measured on a rain, levels 6 and 9 gave the
    /// same bytes and level 1 6 % more (docs/performance.md).
    init(level: Int32 = 6) {
        let status = layercast_deflate_init(&stream, level, -15, 9)
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
    }

    deinit { deflateEnd(&stream) }

    /// The compressed `message` as one WebSocket text frame, header included (RSV1 set); nil for an
    /// empty message. Every message is compressed, even one that grows by a few bytes: RFC 7692
    /// lets such a message go uncompressed, but libwebsockets 4.1's client stops reading a
    /// connection after an uncompressed message on it (measured with `layercast loadtest`).
    func frame(_ message: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let base = message.baseAddress, message.count > 0 else { return nil }
        deflateReset(&stream)
        let bound = Int(deflateBound(&stream, uLong(message.count))) + 16
        if output.count < bound + 10 { output = [UInt8](repeating: 0, count: bound + 10) }
        let compressed: Int = output.withUnsafeMutableBufferPointer { out in
            stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(message.count)
            stream.next_out = out.baseAddress! + 10
            stream.avail_out = uInt(out.count - 10)
            let status = deflate(&stream, Z_SYNC_FLUSH)
            guard status == Z_OK, stream.avail_in == 0 else { return -1 }
            return out.count - 10 - Int(stream.avail_out) - 4  // the 00 00 FF FF tail
        }
        guard compressed >= 0 else { return nil }
        let header = FrameHeader(textLength: compressed, compressed: true)
        return output.withUnsafeMutableBufferPointer { out in
            header.write(before: out.baseAddress! + 10)
            return Array(out[(10 - header.count)..<(10 + compressed)])
        }
    }
}

import CZlib

/// One direction of a permessage-deflate connection (RFC 7692) as libwebsockets runs it: raw
/// deflate at level 1, a 32 KiB window, memLevel 8, context takeover between messages; each
/// message is flushed with Z_SYNC_FLUSH and loses its trailing 00 00 FF FF.
final class DeflateStream {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 20)

    init() {
        let status = layercast_deflate_init(&stream, 1, -15, 8)
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
    }

    deinit { deflateEnd(&stream) }

    /// The compressed size of `message`, the next message on this connection.
    func compressedCount(_ message: UnsafeMutableBufferPointer<UInt8>) -> Int {
        output.withUnsafeMutableBufferPointer { out in
            stream.next_in = message.baseAddress
            stream.avail_in = uInt(message.count)
            stream.next_out = out.baseAddress
            stream.avail_out = uInt(out.count)
            let status = deflate(&stream, Z_SYNC_FLUSH)
            precondition(status == Z_OK && stream.avail_in == 0, "deflate failed: \(status)")
            return out.count - Int(stream.avail_out) - 4
        }
    }
}

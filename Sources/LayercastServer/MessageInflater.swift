import CZlib

/// Inflates the compressed messages one client sends with permessage-deflate (RFC 7692 §7.2.2):
/// each message's raw DEFLATE bytes, as they arrive, then the 00 00 FF FF its sender took off. The
/// window is kept from message to message, so a client that keeps its context works as well as
/// one that does not (we ask for `client_no_context_takeover`). Output beyond `limit` bytes in
/// one message is not made: the message is too large whatever the rest holds, its remaining bytes
/// are skipped, and the window starts afresh with the next message.
final class MessageInflater {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 16 * 1024)
    private var produced = 0
    let limit: Int

    init(limit: Int) {
        self.limit = limit
        let status = layercast_inflate_init(&stream, -15)
        precondition(status == Z_OK, "inflateInit2 failed: \(status)")
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `compressed`, the next bytes of a message (its last when `last`), handing each
    /// piece of output to `take`. False when the bytes are not DEFLATE data.
    func inflate(_ compressed: UnsafeRawBufferPointer, last: Bool, _ take: (UnsafeRawBufferPointer) -> Void) -> Bool {
        defer {
            if last {
                if produced > limit { inflateReset(&stream) }
                produced = 0
            }
        }
        guard run(compressed, take) else { return false }
        guard last else { return true }
        let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
        return tail.withUnsafeBytes { run($0, take) }
    }

    private func run(_ input: UnsafeRawBufferPointer, _ take: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard let base = input.baseAddress, !input.isEmpty else { return true }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = uInt(input.count)
        while stream.avail_in > 0, produced <= limit {
            let made: Int32 = output.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                let status = CZlib.inflate(&stream, Z_SYNC_FLUSH)
                let count = out.count - Int(stream.avail_out)
                if count > 0 { take(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: out[..<count]))) }
                produced += count
                return status
            }
            if made == Z_BUF_ERROR { break }
            if made == Z_STREAM_END {  // a final block ended the message's stream: the next is a new one
                inflateReset(&stream)
                continue
            }
            guard made == Z_OK else { return false }
        }
        return true
    }
}

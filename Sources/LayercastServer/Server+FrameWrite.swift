import CLibWebSockets
import Glibc
import LayercastHub

/// The write path: a message framed in place and sent to the client's socket at once.
extension Server {
    /// Writes `message` to `wsi` as one text frame, compressed when the client took
    /// permessage-deflate. The caller has checked that lws holds nothing of an earlier frame for
    /// `wsi`. False when the connection failed.
    func writeFrame(_ message: EncodedMessage, to wsi: OpaquePointer, deflates: Bool) -> Bool {
        if deflates, let frame = deflatedFrame(of: message) {
            hub.metrics.deflatedBytesSent += frame.count
            return frame.withUnsafeBufferPointer { send(UnsafeMutablePointer(mutating: $0.baseAddress!), count: $0.count, to: wsi) }
        }
        return message.write { text in
            let header = FrameHeader(textLength: text.count, compressed: false)
            header.write(before: text.baseAddress!)
            return send(text.baseAddress! - header.count, count: text.count + header.count, to: wsi)
        }
    }

    /// Sends `count` bytes to `wsi`'s socket with one non-blocking `send`. What the kernel does
    /// not take goes to lws, which keeps it and sends it when the socket drains; lws calls the
    /// client writable again only after that. False when the connection failed.
    private func send(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, to wsi: OpaquePointer) -> Bool {
        let sent = Glibc.send(lws_get_socket_fd(wsi), bytes, count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        if sent == count { return true }
        if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return false }
        let taken = max(sent, 0)
        hub.metrics.partialWrites += 1
        return lws_write(wsi, bytes + taken, count - taken, layercast_lws_write_raw) >= count - taken
    }
}

import CLibWebSockets
import Foundation
import LayercastHub

/// permessage-deflate shared by the room (RFC 7692, `serve --permessage-deflate`): libwebsockets'
/// extension negotiates and inflates what clients send; the server compresses each message once,
/// whatever number of clients it goes to, and writes the same frame to each of them.
extension Server {
    /// LWS_CALLBACK_CONFIRM_EXTENSION_OKAY: 0 takes the client's permessage-deflate offer, 1
    /// declines it (the connection then goes on uncompressed).
    func confirmExtension(_ wsi: OpaquePointer) -> Int32 {
        guard let offer = header(wsi, WSI_TOKEN_EXTENSIONS) else { return 1 }
        return DeflateNegotiation.acceptsOffer(offer) ? 0 : 1
    }

    /// LWS_CALLBACK_ADD_HEADERS of a WebSocket upgrade. libwebsockets 4.1 writes the extension it
    /// took as the last header line before `args.p`, echoing only the parameters the offer named;
    /// this rewrites that line with `DeflateNegotiation.answerParameters`. Returns -1 (the
    /// handshake fails) if the answer does not have the shape it expects, rather than let a
    /// client use a window the server will not keep.
    func completeExtensionAnswer(_ wsi: OpaquePointer, _ args: UnsafeMutablePointer<lws_process_html_args>) -> Int32 {
        guard configuration.permessageDeflate, lws_hdr_total_length(wsi, WSI_TOKEN_UPGRADE) > 0,
              let end = args.pointee.p.map({ UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self) }),
              end[-2] == 13, end[-1] == 10 else { return 0 }
        var start = end - 2
        var scanned = 0
        while !(start[-2] == 13 && start[-1] == 10) {
            start -= 1
            scanned += 1
            if scanned > 512 { return 0 }  // not an upgrade answer's last line: leave it
        }
        let line = String(decoding: UnsafeBufferPointer(start: start, count: end - 2 - start), as: UTF8.self)
        guard line.hasPrefix("Sec-WebSocket-Extensions:") else { return 0 }
        guard let answer = DeflateNegotiation.completedAnswer(line) else { return -1 }
        let bytes = Array(answer.utf8) + [13, 10]
        guard bytes.count - (end - start) <= Int(args.pointee.max_len) else { return -1 }
        bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
        args.pointee.p = UnsafeMutableRawPointer(start + bytes.count).assumingMemoryBound(to: CChar.self)
        args.pointee.max_len -= Int32(bytes.count - (end - start))
        return 0
    }

    /// Whether the client on `wsi` took permessage-deflate: tells libwebsockets' extension to
    /// drop its inflater after each message (the client keeps no window either), which answers
    /// whether the extension is active.
    static func takesDeflate(_ wsi: OpaquePointer) -> Bool {
        lws_set_extension_option(wsi, "permessage-deflate", "server_no_context_takeover", "1") == 0
    }

    /// The compressed frame of `message`, made by the first client that needs it and kept on the
    /// message for the others; nil for an empty message, which goes uncompressed.
    func deflatedFrame(of message: EncodedMessage) -> [UInt8]? {
        if let made = message.transportEncoding { return unsafeDowncast(made, to: DeflatedFrame.self).bytes }
        let frame = DeflatedFrame(bytes: message.withBytes { deflater.frame($0) })
        message.transportEncoding = frame
        hub.metrics.messagesDeflated += 1
        return frame.bytes
    }
}

/// A message's permessage-deflate frame (header included), or nil when it goes uncompressed.
final class DeflatedFrame {
    let bytes: [UInt8]?
    init(bytes: [UInt8]?) { self.bytes = bytes }
}

import Foundation

/// How `serve` answers a permessage-deflate offer (RFC 7692) so that one compressed frame fits
/// every client that took the extension: the server compresses each message on its own and asks
/// each client to do the same, so it needs no zlib state per connection in either direction.
enum DeflateNegotiation {
    /// The parameters every answer carries (RFC 7692 §7.1.1): the server does not use the previous
    /// messages as its window, and the client may not either (a server may ask for this even when
    /// the offer did not mention it, §7.1.1.2).
    static let answerParameters = ["server_no_context_takeover", "client_no_context_takeover"]

    /// Whether the server takes a client's `Sec-WebSocket-Extensions` offer: its first
    /// permessage-deflate offer (the one libwebsockets takes) must not ask for a smaller server
    /// window (`server_max_window_bits`), which the shared 32 KiB-window compressor cannot give.
    static func acceptsOffer(_ header: String) -> Bool {
        for offer in header.split(separator: ",") {
            let parts = offer.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.first == "permessage-deflate" else { continue }
            return !parts.dropFirst().contains { $0.split(separator: "=").first.map(String.init)?.trimmingCharacters(in: .whitespaces) == "server_max_window_bits" }
        }
        return false
    }

    /// The answer's extension header line with `answerParameters` added where libwebsockets (which
    /// echoes only what the offer named) left them out; nil when `line` is not a permessage-deflate
    /// answer.
    static func completedAnswer(_ line: String) -> String? {
        let prefix = "Sec-WebSocket-Extensions:"
        guard line.hasPrefix(prefix) else { return nil }
        let parts = line.dropFirst(prefix.count).split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first == "permessage-deflate" else { return nil }
        let missing = answerParameters.filter { !parts.contains($0) }
        return "\(prefix) " + (parts + missing).joined(separator: "; ")
    }
}

import LayercastWire

/// The strict framing rules every request passes before any handler sees it (docs/protocol.md,
/// "Strict requests"): RFC 9112 §3, §5 and §6.3, decided the way nginx decides them. A request
/// that breaks one is refused (400, or 405 for a method we do not serve) and its connection closed.
enum RequestFraming {
    /// The methods served, case-sensitively (RFC 9110 §9.1); the `Allow` of a 405.
    static let allowedMethods = ["GET", "POST"]

    /// The answer to any other method: 405 with `Allow: GET, POST`.
    static let methodRefusal = RequestRefusal(status: 405, reason: .badMethod,
                                              message: "only GET and POST are served (methods are case-sensitive)")

    /// The first rule `head` breaks, or nil when it may go on to the handlers.
    static func refusal(for head: RequestHead) -> RequestRefusal? {
        guard isToken(head.method) else {
            return .badRequest(.badRequestLine, "the method must be a token")
        }
        guard allowedMethods.contains(head.method) else { return methodRefusal }
        guard head.malformedLines == 0 else {
            return .badRequest(.badHeader, "a header line without a colon, or folded onto the line before it")
        }
        if let field = head.fields.first(where: { !isToken($0.name) }) {
            let spaced = field.name.last == " " || field.name.last == "\t"
            return .badRequest(.badHeader, spaced ? "no white space is allowed between a header name and its colon"
                                                    : "a header name must be a token")
        }
        let lengths = head.values("content-length")
        if lengths.count > 1 {
            return .badRequest(.duplicateContentLength, "more than one Content-Length")
        }
        if let length = lengths.first, !(1...18).contains(length.utf8.count) || !length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return .badRequest(.badContentLength, "Content-Length must be a decimal number of bytes")
        }
        if !lengths.isEmpty, !head.values("transfer-encoding").isEmpty {
            return .badRequest(.contentLengthAndTransferEncoding, "a request may not carry both Content-Length and Transfer-Encoding")
        }
        if head.values("host").count > 1 {
            return .badRequest(.duplicateHost, "more than one Host")
        }
        let path = QueryString.decoded(head.target.prefix { $0 != "?" })
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .badRequest(.badTarget, "the request path must not hold control characters, encoded or not")
        }
        // The query is the handlers' to judge, but for a NUL: libwebsockets drops such a request
        // without an answer.
        if QueryString.decoded(head.target.drop { $0 != "?" }).unicodeScalars.contains("\0") {
            return .badRequest(.badTarget, "the query must not hold a NUL (%00)")
        }
        return handshakeRefusal(head)
    }

    /// A WebSocket handshake must offer `subprotocol`; lws would drop one that does not
    /// without an answer.
    private static func handshakeRefusal(_ head: RequestHead) -> RequestRefusal? {
        guard isHandshake(head) else { return nil }
        let offered = head.values("sec-websocket-protocol").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t") }
        guard offered.contains(Server.subprotocol) else {
            return .badRequest(.subprotocol, "the WebSocket subprotocol must be \(Server.subprotocol)")
        }
        return nil
    }

    /// Whether `head` asks for a WebSocket (`Upgrade: websocket`).
    static func isHandshake(_ head: RequestHead) -> Bool {
        head.values("upgrade").contains { $0.lowercased().contains("websocket") }
    }

    /// RFC 9110 §5.6.2: one or more of ``!#$%&'*+-.^_`|~``, digits and letters.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

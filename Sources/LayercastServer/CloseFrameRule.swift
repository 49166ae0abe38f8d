/// RFC 6455 §5.5.1 and §7.4 for the close frame a client sends: no payload, or a valid status
/// code optionally followed by a UTF-8 reason.
enum CloseFrameRule {
    /// What is wrong with a close payload: the code to close with (1002 protocol error, 1007
    /// invalid payload), the `/metrics` reason and the close reason; nil when it is well formed.
    static func violation(_ payload: some Collection<UInt8>) -> (code: Int32, reason: String, message: String)? {
        let bytes = Array(payload)
        if bytes.isEmpty { return nil }
        guard bytes.count >= 2 else { return (1002, "close_payload", "a close payload must hold a 2-byte code") }
        let code = Int(bytes[0]) << 8 | Int(bytes[1])
        guard isValid(code) else { return (1002, "close_code", "close code \(code) may not be sent") }
        guard String(validating: bytes[2...], as: UTF8.self) != nil else {
            return (1007, "close_reason_utf8", "the close reason is not UTF-8")
        }
        return nil
    }

    /// Codes a peer may send: 1000–1003, 1007–1014 (RFC 6455 and the IANA registry) and
    /// 3000–4999 (libraries and applications). 1004–1006 and 1015 never go on the wire.
    static func isValid(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}

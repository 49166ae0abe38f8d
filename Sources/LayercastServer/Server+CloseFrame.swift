import CLibWebSockets

extension Server {
    /// A client's close frame (RFC 6455 §5.5.1, §7.4): the connection begins closing at once, and
    /// lws echoes the close and closes the socket; one that breaks the rules fails the connection
    /// with 1002 or 1007 instead of being echoed. Returns what the lws callback returns.
    func peerClosing(_ wsi: OpaquePointer, _ payload: UnsafeRawBufferPointer) -> Int32 {
        guard let violation = CloseFrameRule.violation(payload) else {
            beginClosing(wsi)
            return 0
        }
        hub.metrics.webSocketViolations[violation.reason, default: 0] += 1
        logger.notice("bad close frame", metadata: ["client": "\(clientName(wsi) ?? "?")", "reason": "\(violation.reason)"])
        return close(wsi, code: violation.code, reason: violation.message, failing: true)
    }
}

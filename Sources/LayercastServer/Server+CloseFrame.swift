import CLibWebSockets

extension Server {
    /// A client's close frame (RFC 6455 §5.5.1, §7.4): one that breaks the rules fails the
    /// connection with 1002 or 1007 instead of being echoed. Returns what the lws callback returns.
    func peerClosing(_ wsi: OpaquePointer, _ payload: UnsafeRawBufferPointer) -> Int32 {
        guard let violation = CloseFrameRule.violation(payload) else { return 0 }
        hub.metrics.webSocketViolations[violation.reason, default: 0] += 1
        logger.notice("bad close frame", metadata: ["client": "\(clientName(wsi) ?? "?")", "reason": "\(violation.reason)"])
        var reason = Array(violation.message.utf8)
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(violation.code)), &reason, reason.count)
        return -1
    }
}

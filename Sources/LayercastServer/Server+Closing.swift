import CLibWebSockets
import LayercastPlatform

// Closing is a state every writer respects (RFC 6455 §5.5.1, §7.1; docs/protocol.md, "Closing").
// A WebSocket leaves the hub the moment its close begins: when a close frame is queued by us or by
// lws (LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL), or when the client's close arrives. From then on no
// path writes it a data frame (the tick and the woken writes only write hub clients, and the
// writable callback finds no client in its session data), and its socket is closed as soon as the
// close handshake ends, or `closeWait` seconds after it began if the client never answers. A
// connection failed for breaking the protocol is closed right after its close frame has gone, without
// waiting for an answer: RFC 6455 §7.1.7 forbids processing anything more from it (and after a bad
// frame header lws cannot find the client's close frame in the stream anyway).
extension Server {
    /// Seconds a closing connection waits for the client's close frame before its socket is closed.
    static let closeWait = 1.0
    /// Seconds a failed connection is given for lws to send its close frame (one loop turn when the
    /// socket can take it).
    static let failWait = 0.1

    /// `wsi` has begun closing: it leaves the hub and gets `closeWait` seconds to finish, or
    /// `failWait` when it is `failing` the protocol.
    func beginClosing(_ wsi: OpaquePointer, failing: Bool = false) {
        guard closingDeadlines[wsi] == nil else { return }
        closingDeadlines[wsi] = monotonicSeconds() + (failing ? Self.failWait : Self.closeWait)
        lws_wsi_user(wsi)?.storeBytes(of: 0, as: Int.self)  // `client(_:)` finds no hub client from now on
        guard let id = clients.removeValue(forKey: wsi) else { return }
        hub.disconnect(id)
    }

    /// lws is closing `wsi` (LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL). When nothing of ours began it and
    /// its close reason says 1002, lws failed the connection for a frame that broke RFC 6455 (RSV
    /// bits, a reserved opcode, a fragmented control frame…): counted in
    /// `layercast_websocket_violations_total{reason="protocol_error"}`.
    func protocolDropped(_ wsi: OpaquePointer) {
        guard closingDeadlines[wsi] == nil else { return }
        if let reason = Self.violationReason(wsi) {
            hub.metrics.webSocketViolations[reason, default: 0] += 1
            logger.notice("websocket violation", metadata: ["client": "\(clientName(wsi) ?? "?")", "reason": "\(reason)"])
            beginClosing(wsi, failing: true)
        } else {
            beginClosing(wsi)
        }
    }

    /// Closes the socket of every connection whose close handshake has taken longer than `closeWait`.
    func expireClosings(now: Double) {
        guard !closingDeadlines.isEmpty else { return }
        for (wsi, deadline) in closingDeadlines where now >= deadline {
            closingDeadlines[wsi] = nil
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
        }
    }

    /// The `/metrics` reason of a close lws queued for a frame that broke the protocol (its close
    /// reason says 1002); nil for any other close.
    private static func violationReason(_ wsi: OpaquePointer) -> String? {
        guard lws_get_close_length(wsi) >= 2, let payload = lws_get_close_payload(wsi),
              Int(payload[0]) << 8 | Int(payload[1]) == 1002 else { return nil }
        return "protocol_error"
    }
}

import CLibWebSockets

// Closing is a state every writer respects (RFC 6455 §5.5.1, §7.1; docs/protocol.md, "Closing").
// A WebSocket leaves the hub the moment its close begins: when a close frame is queued by us (or
// lws closes it, LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL), or when the client's close arrives. From
// then on no path writes it a data frame (the tick and the woken writes only write hub clients, and
// the writable callback finds no client in its session data), and its socket is closed as soon as
// the close handshake ends, or `closeWait` seconds after it began if the client never answers. A
// close that awaits no answer (an echo of the client's, or a failed connection, whose further
// bytes RFC 6455 §7.1.7 forbids processing) ends `flushWait` after it began, once its frame has gone.
extension Server {
    /// Seconds a closing connection waits for the client's close frame before its socket is closed.
    static let closeWait = 1.0
    /// Seconds a close that awaits no answer gives lws to send its frame (one loop turn when the
    /// socket can take it).
    static let flushWait = 0.1

    /// `wsi` has begun closing: it leaves the hub and gets `closeWait` seconds to finish, or
    /// `flushWait` when it `awaitsAnswer` not.
    func beginClosing(_ wsi: OpaquePointer, awaitsAnswer: Bool = true) {
        let connection = self.connection(wsi)
        guard connection.closingDeadline == nil else { return }
        connection.closingDeadline = monotonicClock.now + (awaitsAnswer ? Self.closeWait : Self.flushWait)
        closing.insert(wsi)
        connection.pendingPong = nil
        lws_wsi_user(wsi)?.storeBytes(of: 0, as: Int.self)  // `client(_:)` finds no hub client from now on
        leaveHub(connection)
    }

    /// Closes the socket of every connection whose close has taken longer than its wait.
    func expireClosings(now: Double) {
        guard !closing.isEmpty else { return }
        for wsi in closing {
            guard let connection = connections[wsi], let deadline = connection.closingDeadline, now >= deadline else { continue }
            closing.remove(wsi)
            connection.closingDeadline = nil
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
        }
    }
}

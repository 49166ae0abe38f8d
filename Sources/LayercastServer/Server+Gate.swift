import CLibWebSockets
import Foundation

// Strict request framing in front of every handler (docs/protocol.md, "Strict requests"): each
// HTTP connection is held, unread by lws, until the head of its next request is in the socket
// whole; it is read with MSG_PEEK and judged by RequestFraming, then either handed to lws
// untouched or refused here.
extension Server {
    /// Stops lws reading `wsi` until its request head has been judged: called for every new
    /// connection.
    func hold(_ wsi: OpaquePointer) {
        lws_rx_flow_control(wsi, 0)
        gate.held.insert(wsi)
        guard !gate.scheduled else { return }
        gate.scheduled = true
        gateTimer.schedule(after: RequestGate.interval)
    }

    /// Ends an answered request by closing its connection once lws has handed the whole answer
    /// to the kernel (the end waits for the writable callback that follows the flush). One
    /// request per connection: a kept-alive connection's next request would reach lws unjudged,
    /// and holding a connection after a transaction made lws spin on its rx-flow list (a server
    /// with one idle kept-alive client used ≈ 80 % of a core). Returns what the lws callback returns.
    func completeTransaction(_ wsi: OpaquePointer) -> Int32 {
        if lws_partial_buffered(wsi) != 0 {
            gate.flushing.insert(wsi)
            lws_callback_on_writable(wsi)
            return 0
        }
        gate.flushing.remove(wsi)
        return -1
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: ends a transaction whose answer was waiting to be flushed.
    func httpWritable(_ wsi: OpaquePointer) -> Int32 {
        if case .some(.some(let answer)) = deferredAnswers[wsi] {
            deferredAnswers[wsi] = nil
            return write(wsi, answer.map(\.document), status: (try? answer.get().status) ?? 200)
        }
        return gate.flushing.contains(wsi) ? completeTransaction(wsi) : 0
    }

    /// Forgets a connection lws has closed.
    func forgetHeld(_ wsi: OpaquePointer) {
        deferredAnswers[wsi] = nil
        gate.held.remove(wsi)
        gate.flushing.remove(wsi)
        gate.handshakeTargets[wsi] = nil
    }

    /// Looks at every held socket: a whole head is judged, a partial one waits (lws's own
    /// timeout ends a client that never finishes it), an ended socket goes back to lws.
    func inspectHeldRequests() {
        gate.scheduled = false
        var buffer = [UInt8](repeating: 0, count: RequestGate.maxHead)
        for wsi in gate.held {
            let count = recv(lws_get_socket_fd(wsi), &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            guard count > 0 else {
                release(wsi)
                continue
            }
            guard let parsed = RequestHead.parse(buffer.prefix(count)) else {
                if count == buffer.count {
                    refuseRequest(wsi, RequestRefusal(status: 431, reason: "head_too_large",
                                               message: "the request head is over \(RequestGate.maxHead) bytes"))
                }
                continue
            }
            switch parsed.head {
            case .failure(let refusal): refuseRequest(wsi, refusal)
            case .success(let head):
                if let refusal = RequestFraming.refusal(for: head) {
                    refuseRequest(wsi, refusal)
                } else {
                    if RequestFraming.isHandshake(head) { gate.handshakeTargets[wsi] = head.target }
                    release(wsi)
                }
            }
        }
        if !gate.held.isEmpty {
            gate.scheduled = true
            gateTimer.schedule(after: RequestGate.interval)
        }
    }

    private func release(_ wsi: OpaquePointer) {
        gate.held.remove(wsi)
        lws_rx_flow_control(wsi, 1)
    }

    /// Answers a refused request on the socket itself (lws has read none of it) and closes.
    func refuseRequest(_ wsi: OpaquePointer, _ refusal: RequestRefusal) {
        gate.held.remove(wsi)
        hub.metrics.httpRefused[refusal.reason, default: 0] += 1
        logger.notice("refused request", metadata: ["status": "\(refusal.status)", "reason": "\(refusal.reason)"])
        let fd = lws_get_socket_fd(wsi)
        // Take what was sent, so that closing does not reset the connection before the answer is read.
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var reads = 0
        while reads < 4, recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
        let response = refusal.response(headers: securityHeaders)
        _ = response.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(fd, Int32(SHUT_WR))
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }
}

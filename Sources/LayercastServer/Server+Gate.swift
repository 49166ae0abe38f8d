import LayercastWire
import CLibWebSockets
import Foundation

// Strict request framing in front of every handler (docs/protocol.md, "Strict requests"): each
// HTTP connection is held, unread by lws, until the head of its next request is in the socket
// whole; it is read with MSG_PEEK and judged by RequestFraming, then either handed to lws
// untouched or refused here.
extension Server {
    /// Stops lws reading `wsi` until its request head has been judged: called for every new
    /// connection, whose record it makes.
    func hold(_ wsi: OpaquePointer) {
        lws_rx_flow_control(wsi, 0)
        connection(wsi).heldRequest = HeldRequest(deadline: monotonicClock.now + configuration.headTimeoutSeconds, started: false)
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
            connection(wsi).flushing = true
            lws_callback_on_writable(wsi)
            return 0
        }
        connections[wsi]?.flushing = false
        return -1
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: ends a transaction whose answer was waiting to be flushed.
    func httpWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections[wsi] else { return 0 }
        if case .some(.some(let answer)) = connection.deferredAnswer {
            connection.deferredAnswer = nil
            return write(wsi, answer)
        }
        return connection.flushing ? completeTransaction(wsi) : 0
    }

    /// Looks at every held socket, with one `poll` for all of them: a whole head is judged; a socket
    /// whose peer has gone before its head was whole is closed at once; a partial head waits until `--head-timeout` after
    /// its first byte (a silent connection, after it was accepted), however slowly it drips, and is
    /// then answered 408.
    func inspectHeldRequests() {
        gate.scheduled = false
        let now = monotonicClock.now
        let held = Array(gate.held)
        var polls = held.map { pollfd(fd: lws_get_socket_fd($0), events: Int16(POLLIN) | Self.peerHungUp, revents: 0) }
        if poll(&polls, nfds_t(polls.count), 0) < 0 { polls.indices.forEach { polls[$0].revents = 0 } }
        var buffer = [UInt8](repeating: 0, count: RequestGate.maxHead)
        for (wsi, polled) in zip(held, polls) {
            if polled.revents & Int16(POLLIN) != 0 { inspect(wsi, buffer: &buffer, now: now) }
            guard let request = connections[wsi]?.heldRequest else { continue }
            if polled.revents & (Self.peerHungUp | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                dropGone(wsi)
            } else if now >= request.deadline {
                let message = "the request head did not arrive whole within \(configuration.headTimeoutSeconds) s"
                refuseRequest(wsi, RequestRefusal(status: 408, reason: .headTimeout, message: message))
            }
        }
        if !gate.held.isEmpty {
            gate.scheduled = true
            gateTimer.schedule(after: RequestGate.interval)
        }
    }

    /// Judges the head waiting in `wsi`'s socket, if it is whole; the first byte starts its timeout.
    private func inspect(_ wsi: OpaquePointer, buffer: inout [UInt8], now: Double) {
        let count = recv(lws_get_socket_fd(wsi), &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        guard count > 0 else { return }
        if let connection = connections[wsi], connection.heldRequest?.started == false {
            connection.heldRequest = HeldRequest(deadline: now + configuration.headTimeoutSeconds, started: true)
        }
        guard let parsed = RequestHead.parse(buffer.prefix(count)) else {
            if count == buffer.count {
                refuseRequest(wsi, RequestRefusal(status: 431, reason: .headTooLarge,
                                                  message: "the request head is over \(RequestGate.maxHead) bytes"))
            }
            return
        }
        switch parsed.head {
        case .failure(let refusal): refuseRequest(wsi, refusal)
        case .success(let head):
            if let refusal = RequestFraming.refusal(for: head) {
                refuseRequest(wsi, refusal)
            } else {
                if RequestFraming.isHandshake(head) { connection(wsi).handshakeTarget = head.target }
                release(wsi)
            }
        }
    }

    /// A held connection whose peer has closed or reset it before its head was whole: closed now,
    /// its descriptor freed, counted as `peer_gone`.
    private func dropGone(_ wsi: OpaquePointer) {
        unhold(wsi)
        transportMetrics.httpRefused["peer_gone", default: 0] += 1
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC)
    }

    /// Linux's POLLRDHUP (the peer shut down its side), which Glibc exports only under _GNU_SOURCE.
    private static let peerHungUp: Int16 = 0x2000

    private func release(_ wsi: OpaquePointer) {
        unhold(wsi)
        lws_rx_flow_control(wsi, 1)
    }

    /// The gate holds `wsi` no more.
    private func unhold(_ wsi: OpaquePointer) {
        gate.held.remove(wsi)
        connections[wsi]?.heldRequest = nil
    }

    /// Answers a refused request on the socket itself (lws has read none of it) and closes.
    func refuseRequest(_ wsi: OpaquePointer, _ refusal: RequestRefusal) {
        unhold(wsi)
        transportMetrics.httpRefused[refusal.reason.rawValue, default: 0] += 1
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

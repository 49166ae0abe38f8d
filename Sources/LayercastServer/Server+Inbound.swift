import CLibWebSockets
import Glibc
import LayercastHub
import LayercastPlatform
import LayercastWire

// The inbound half of every WebSocket, read by the server itself (RFC 6455 §5; docs/protocol.md,
// "Frames a client sends"). Once a connection is established lws reads it no more (rx flow off):
// a `ReadWatcher` of ours calls `readClient` and `ClientFrameReader` parses, so that every frame
// is judged as the RFC says, which lws 4.1.6 cannot be made to do: it takes unmasked frames and
// answers only the first of several pings waiting for a pong. Data goes to the hub, text checked
// as UTF-8 as it arrives; the latest ping gets a pong; a close is answered or ends our own; any
// broken rule fails the connection with 1002 or 1007, counted in
// `layercast_websocket_violations_total`.
extension Server {
    /// Reads of one socket per wake, at most, before the loop serves the others.
    static let readsPerWake = 4

    /// Takes over reading `wsi`, just established (`deflates`: it took permessage-deflate); its
    /// reader stops when `forget` drops its record.
    func startReading(_ wsi: OpaquePointer, _ connection: Connection, deflates: Bool) {
        lws_rx_flow_control(wsi, 0)
        let inbound = ClientInbound(deflate: deflates)
        inbound.watcher = ReadWatcher(on: eventLoop, descriptor: lws_get_socket_fd(wsi)) { [unowned self, unowned inbound] in
            readClient(wsi, inbound)
        }
        connection.inbound = inbound
    }

    /// `wsi`'s socket is readable: its bytes go through its frame reader.
    private func readClient(_ wsi: OpaquePointer, _ inbound: ClientInbound) {
        let fd = lws_get_socket_fd(wsi)
        for _ in 0..<Self.readsPerWake {
            let count = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            guard count > 0 else { return peerGone(wsi, inbound) }
            if !inbound.reader.ended {
                readBuffer.withUnsafeMutableBytes { buffer in
                    inbound.reader.read(UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])) { event in
                        handle(event, from: wsi, inbound)
                    }
                }
            }
            if count < readBuffer.count { return }
        }
    }

    private func handle(_ event: ClientFrameReader.Event, from wsi: OpaquePointer, _ inbound: ClientInbound) {
        switch event {
        case .data(let bytes, let first, let last, let text, let compressed):
            guard compressed else { return deliver(UnsafeRawBufferPointer(bytes), first: first, last: last, text: text, wsi, inbound) }
            let inflater = inbound.inflater ?? MessageInflater(limit: ClientMessage.maxBytes)
            inbound.inflater = inflater
            var firstPiece = first
            let inflated = inflater.inflate(UnsafeRawBufferPointer(bytes), last: last) { piece in
                deliver(piece, first: firstPiece, last: false, text: text, wsi, inbound)
                firstPiece = false
            }
            guard inflated else { return fail(wsi, code: 1007, reason: "bad_deflate", message: "a compressed message is not DEFLATE data") }
            if last { deliver(UnsafeRawBufferPointer(start: nil, count: 0), first: firstPiece, last: true, text: text, wsi, inbound) }
        case .ping(let payload):
            guard client(wsi) != nil, let connection = connections[wsi] else { return }
            connection.pendingPong = payload  // only the latest is answered (RFC 6455 §5.5.3)
            lws_callback_on_writable(wsi)
        case .pong:
            break
        case .close(let payload):
            peerClosed(wsi, payload)
        case .violation(let code, let reason, let message):
            fail(wsi, code: code, reason: reason, message: message)
        }
    }

    /// A data message's next (uncompressed) bytes, for the hub; text must be UTF-8 as it arrives
    /// (§8.1): the first byte that cannot be, or a message ending inside a character, fails the
    /// connection with 1007.
    private func deliver(_ bytes: UnsafeRawBufferPointer, first: Bool, last: Bool, text: Bool, _ wsi: OpaquePointer, _ inbound: ClientInbound) {
        guard let id = client(wsi) else { return }
        if text {
            if first { inbound.text = UTF8Validator() }
            guard inbound.text.take(bytes), !last || inbound.text.isBetweenCharacters else {
                return fail(wsi, code: 1007, reason: "invalid_utf8", message: "text is not UTF-8")
            }
        }
        hub.receive(id, bytes, first: first, final: last, binary: !text)
    }

    /// The client's close frame (§5.5.1, §7.4): the answer to ours ends the connection now; one of
    /// its own is echoed (a bad one fails the connection instead) and the socket closed once the
    /// echo has gone.
    private func peerClosed(_ wsi: OpaquePointer, _ payload: [UInt8]) {
        if connections[wsi]?.closingDeadline != nil {
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            return
        }
        if let violation = CloseFrameRule.violation(payload) {
            return fail(wsi, code: violation.code, reason: violation.reason, message: violation.message)
        }
        let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1000
        sendClose(wsi, code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
    }

    /// Fails the connection (§7.1.7): a close frame with `code` and `message`, then the socket is
    /// closed without waiting for an answer. Counted by `reason`.
    private func fail(_ wsi: OpaquePointer, code: Int32, reason: String, message: String) {
        guard connections[wsi]?.closingDeadline == nil else { return }
        transportMetrics.webSocketViolations[reason, default: 0] += 1
        logger.notice("websocket violation", metadata: ["client": "\(clientName(wsi) ?? "?")", "reason": "\(reason)"])
        sendClose(wsi, code: Int(code), reason: message)
    }

    /// Queues a close frame that awaits no answer (an echo, or a failure) for lws's writable
    /// callback, and begins the close.
    private func sendClose(_ wsi: OpaquePointer, code: Int, reason: String) {
        connection(wsi).closeDue = (code, reason)
        beginClosing(wsi, awaitsAnswer: false)
        lws_callback_on_writable(wsi)
    }

    /// The client closed or reset its socket: the connection ends now.
    private func peerGone(_ wsi: OpaquePointer, _ inbound: ClientInbound) {
        inbound.watcher?.stop()
        beginClosing(wsi, awaitsAnswer: false)
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Sends the pong due to `wsi`, if one is; true when it did (the rest waits for the next
    /// writable callback).
    func writePendingPong(_ wsi: OpaquePointer, _ connection: Connection) -> Bool {
        guard let payload = connection.pendingPong else { return false }
        connection.pendingPong = nil
        var frame = [UInt8](repeating: 0, count: Int(layercast_lws_pre) + payload.count)
        frame.replaceSubrange(Int(layercast_lws_pre)..., with: payload)
        frame.withUnsafeMutableBufferPointer { buffer in
            _ = lws_write(wsi, buffer.baseAddress! + Int(layercast_lws_pre), payload.count, LWS_WRITE_PONG)
        }
        lws_callback_on_writable(wsi)
        return true
    }
}

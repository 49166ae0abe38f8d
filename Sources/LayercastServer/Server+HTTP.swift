import CLibWebSockets
import Foundation
import LayercastJSON
import LayercastHub
import LayercastSceneAPI
import LayercastWire

extension Server {
    /// Answers one HTTP request: a route of the API, a scene's image, or a file under `public/`. Returns what
    /// the lws callback returns (-1 closes the connection).
    func respond(_ wsi: OpaquePointer, path: String) -> Int32 {
        if lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 { return beginPost(wsi, path: path) }
        guard lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 else {  // a pipelined request the gate did not see
            refuseRequest(wsi, RequestFraming.methodRefusal)
            return 0
        }
        let request = APIRequest(.get, path, query: queryArguments(wsi), authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION))
        if let status = answer(wsi, request) { return status }
        switch SceneAssetRoute.target(of: path, in: scenes) {
        case .file(let asset, let type): return writeSceneAsset(wsi, asset, type: type)
        case .missing: return write(wsi, .text("not found\n", status: 404))
        case nil: break
        }
        guard let file = files.file(for: path) else {
            return write(wsi, .text("not found\n", status: 404))
        }
        return writeStaticFile(wsi, path: file, query: request.query)
    }

    /// Starts reading a POST body (to its end, whatever the route, so the connection stays in
    /// step). Returns what the lws callback returns.
    func beginPost(_ wsi: OpaquePointer, path: String) -> Int32 {
        let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0) }
        if length == nil, header(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) != nil {
            return write(wsi, .error(APIError(411, .lengthRequired, "send the body with a Content-Length (not chunked)")))
        }
        connection(wsi).pendingPost = PendingPost(path: path, authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), startedAt: monotonicClock.now)
        posting.insert(wsi)
        // An explicit `Content-Length: 0` gets its HTTP_BODY_COMPLETION from lws right after this
        // callback (lws_http_action); a POST without the header gets none, so it completes here.
        return length == nil ? completePost(wsi) : 0
    }

    /// A piece of a POST body.
    func receiveBody(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        connections[wsi]?.pendingPost?.append(bytes)
    }

    /// The whole POST body has arrived: its route answers it.
    func completePost(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections[wsi], let post = connection.pendingPost else { return -1 }
        connection.pendingPost = nil
        posting.remove(wsi)
        let request = APIRequest(.post, post.path, authorization: post.authorization, body: post.body, oversize: post.oversize)
        return answer(wsi, request) ?? -1
    }

    /// Hands `request` to its route and writes the answer now, or when it comes (`answerLater`:
    /// a command forwarded to the room's origin). Nil when no route takes it.
    private func answer(_ wsi: OpaquePointer, _ request: APIRequest) -> Int32? {
        var immediate: APIResponse?
        var waiting = false
        let routed = routes.answer(request) { [unowned self] response in
            if waiting { answerLater(wsi, response) } else { immediate = response }
        }
        guard routed else { return nil }
        guard let response = immediate else {
            waiting = true
            connection(wsi).deferredAnswer = .some(nil)
            return 0
        }
        return write(wsi, response)
    }

    /// Keeps `response` for a request that waited for it and asks to write it (`httpWritable`);
    /// a request whose connection has closed meanwhile is forgotten.
    private func answerLater(_ wsi: OpaquePointer, _ response: APIResponse) {
        guard let connection = connections[wsi], connection.deferredAnswer != nil else { return }
        connection.deferredAnswer = response
        lws_callback_on_writable(wsi)
    }

    /// Writes an API answer, counting an error's code in `/metrics`.
    func write(_ wsi: OpaquePointer, _ response: APIResponse) -> Int32 {
        if let code = response.error { transportMetrics.apiErrors[code, default: 0] += 1 }
        return write(wsi, status: response.status, type: response.contentType, body: response.body)
    }

    /// Writes a whole small response: status line, our headers (lws adds `securityHeaders`), body.
    func write(_ wsi: OpaquePointer, status: UInt32, type: String, body: String) -> Int32 {
        let pre = layercast_lws_pre
        let bodyBytes = Array(body.utf8)
        var head = [UInt8](repeating: 0, count: pre + 1024)
        let failed: Bool = head.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress! + pre
            let end = buffer.baseAddress! + buffer.count
            var p: UnsafeMutablePointer<UInt8>? = start
            if lws_add_http_common_headers(wsi, status, type, lws_filepos_t(bodyBytes.count), &p, end) != 0 { return true }
            return lws_finalize_write_http_header(wsi, start, &p, end) != 0
        }
        if failed { return -1 }
        var payload = [UInt8](repeating: 0, count: pre) + bodyBytes
        let written = payload.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + pre, bodyBytes.count, LWS_WRITE_HTTP_FINAL)
        }
        if written < 0 { return -1 }
        return completeTransaction(wsi)
    }

    // MARK: Handshake

    /// Decides a WebSocket handshake: the origin must be allowed; the query is parsed now and
    /// acted on once the connection is established. Nonzero refuses it.
    func filterHandshake(_ wsi: OpaquePointer) -> Int32 {
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        guard origins.allows(origin: origin, host: header(wsi, WSI_TOKEN_HOST)) else {
            logger.notice("refused origin", metadata: ["origin": "\(LogText.escaped(origin ?? ""))"])
            _ = write(wsi, status: 403, type: "text/plain; charset=utf-8", body: "origin not allowed\n")
            return -1
        }
        guard let chosen = lws_get_protocol(wsi)?.pointee.name, String(cString: chosen) == Server.subprotocol else {
            _ = write(wsi, status: 400, type: "text/plain; charset=utf-8", body: "the WebSocket subprotocol must be \(Server.subprotocol)\n")
            return -1
        }
        let peer = peerAddress(wsi), forwardedFor = header(wsi, WSI_TOKEN_X_FORWARDED_FOR)
        let address = proxies.clientAddress(peer: peer, forwardedFor: forwardedFor)
        if forwardedFor != nil, address == peer, !warnedOfUntrustedProxy {
            warnedOfUntrustedProxy = true
            logger.warning("a handshake came with X-Forwarded-For from \(peer), which is not a --trust-proxy: its clients are counted as one address against the per-address limits")
        }
        let connection = self.connection(wsi)
        let arguments = connection.handshakeTarget.map(QueryString.arguments(of:)) ?? queryArguments(wsi)
        connection.handshakeTarget = nil
        connection.pendingJoin = (JoinRequest.parse(arguments, identities: identities, now: Date()), address)
        return 0
    }

    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0, length < 4096 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
        return String(nulTerminated: buffer)
    }

    /// The peer's address as text (empty when lws cannot tell).
    func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return String(nulTerminated: buffer)
    }

    /// The URL query as `name → value` (lws has already URL-decoded each `name=value` fragment);
    /// every argument is read whole, however long (lws bounds the whole request).
    func queryArguments(_ wsi: OpaquePointer) -> [String: String] {
        var arguments: [String: String] = [:]
        for index in 0..<16 {
            let size = Int(lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, Int32(index)))
            guard size > 0 else { break }
            var buffer = [CChar](repeating: 0, count: size + 1)
            let length = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, Int32(index))
            guard length >= 0 else { break }
            let text = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, arguments[String(parts[0])] == nil { arguments[String(parts[0])] = String(parts[1]) }
        }
        return arguments
    }
}

import CLibWebSockets

extension Server {
    /// Writes a whole 200 (with `body`) or 304 (`body` nil) whose headers are ours alone: the
    /// status line is written here, not by lws_add_http_header_status, which would add the vhost
    /// headers and with them `Cache-Control: no-cache`. `securityHeaders` but that one, then
    /// `Connection: close`, `headers` and the Content-Length. Returns what the lws callback returns.
    func writeAnswer(_ wsi: OpaquePointer, headers: [(name: String, value: String)], body: [UInt8]?) -> Int32 {
        let statusLine = body == nil ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n"
        let all = securityHeaders.filter { $0.name != "cache-control" } + [("connection", "close")] + headers
        let pre = layercast_lws_pre
        var head = [UInt8](repeating: 0, count: pre + 4096)
        let failed: Bool = head.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress! + pre
            let end = buffer.baseAddress! + buffer.count
            let line = Array(statusLine.utf8)
            line.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: line.count) }
            var p: UnsafeMutablePointer<UInt8>? = start + line.count
            for (name, value) in all {
                if lws_add_http_header_by_name(wsi, name + ":", value, Int32(value.utf8.count), &p, end) != 0 { return true }
            }
            if let body, lws_add_http_header_content_length(wsi, lws_filepos_t(body.count), &p, end) != 0 { return true }
            return lws_finalize_write_http_header(wsi, start, &p, end) != 0
        }
        if failed { return -1 }
        guard let body, !body.isEmpty else { return completeTransaction(wsi) }
        var payload = [UInt8](repeating: 0, count: pre) + body
        let written = payload.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + pre, body.count, LWS_WRITE_HTTP_FINAL)
        }
        if written < 0 { return -1 }
        return completeTransaction(wsi)
    }
}

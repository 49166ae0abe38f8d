import CLibWebSockets
import Foundation
import LayercastHub

extension Server {
    /// Answers a scene's image (`SceneAssetRoute`): 200 with the bytes, or 304 when the request's
    /// `If-None-Match` names its ETag; both with `ETag` and `Cache-Control: public, max-age=3600`.
    /// Returns what the lws callback returns.
    func writeSceneAsset(_ wsi: OpaquePointer, _ file: SceneAssetFile, type: String) -> Int32 {
        let notModified = SceneAssetRoute.notModified(ifNoneMatch: header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH), etag: file.etag)
        // The status line is written here, not by lws_add_http_header_status, which would add the
        // vhost headers and with them `Cache-Control: no-cache`; the others are added by hand.
        let statusLine = notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n"
        var headers = securityHeaders.filter { $0.name != "cache-control" }
        headers += [("connection", "close"), ("etag", file.etag), ("cache-control", SceneAssetRoute.cacheControl)]
        if !notModified { headers.append(("content-type", type)) }
        let pre = layercast_lws_pre
        var head = [UInt8](repeating: 0, count: pre + 2048)
        let failed: Bool = head.withUnsafeMutableBufferPointer { buffer in
            let start = buffer.baseAddress! + pre
            let end = buffer.baseAddress! + buffer.count
            let line = Array(statusLine.utf8)
            line.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: line.count) }
            var p: UnsafeMutablePointer<UInt8>? = start + line.count
            for (name, value) in headers {
                let added = lws_add_http_header_by_name(wsi, name + ":", value, Int32(value.utf8.count), &p, end)
                if added != 0 { return true }
            }
            if !notModified, lws_add_http_header_content_length(wsi, lws_filepos_t(file.bytes.count), &p, end) != 0 { return true }
            return lws_finalize_write_http_header(wsi, start, &p, end) != 0
        }
        if failed { return -1 }
        if notModified { return completeTransaction(wsi) }
        var payload = [UInt8](repeating: 0, count: pre) + file.bytes
        let written = payload.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + pre, file.bytes.count, LWS_WRITE_HTTP_FINAL)
        }
        if written < 0 { return -1 }
        return completeTransaction(wsi)
    }
}

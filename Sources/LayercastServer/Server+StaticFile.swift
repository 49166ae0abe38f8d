import CLibWebSockets

extension Server {
    /// Answers a file of `public/` (docs/protocol.md, "Static files"): gzip when the request
    /// accepts it and the file is text, `Vary: Accept-Encoding` for text, an `ETag` per body and a
    /// 304 when `If-None-Match` names it, `Cache-Control` by `StaticCacheControl`, and a page's
    /// `ScenePreload` link for the `scene` of `query`. Returns what the lws callback returns.
    func writeStaticFile(_ wsi: OpaquePointer, path: String, query: [String: String]) -> Int32 {
        guard let file = staticCache.file(at: path) else { return write(wsi, .text("not found\n", status: 404)) }
        let gzip = file.gzipped != nil && AcceptEncoding.acceptsGzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING))
        let etag = file.etag(gzip: gzip)
        let notModified = IfNoneMatch.matches(header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH), etag: etag)
        var headers = [("etag", etag), ("cache-control", StaticCacheControl.value(versionQuery: query["v"], version: file.version))]
        if file.varies { headers.append(("vary", "Accept-Encoding")) }
        if notModified { return writeAnswer(wsi, headers: headers, body: nil) }
        headers.append(("content-type", file.type))
        if let link = ScenePreload.link(scene: query["scene"], type: file.type, in: scenes) { headers.append(("link", link)) }
        if gzip { headers.append(("content-encoding", "gzip")) }
        return writeAnswer(wsi, headers: headers, body: gzip ? file.gzipped : file.bytes)
    }
}

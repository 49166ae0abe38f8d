import CLibWebSockets
import LayercastHub

extension Server {
    /// Answers a scene's image (`SceneAssetRoute`): 200 with the bytes, or 304 when the request's
    /// `If-None-Match` names its ETag; both with `ETag` and `Cache-Control: public, max-age=3600`.
    /// Returns what the lws callback returns.
    func writeSceneAsset(_ wsi: OpaquePointer, _ file: SceneAssetFile, type: String) -> Int32 {
        let notModified = IfNoneMatch.matches(header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH), etag: file.etag)
        var headers = [("etag", file.etag), ("cache-control", SceneAssetRoute.cacheControl)]
        if !notModified { headers.append(("content-type", type)) }
        return writeAnswer(wsi, headers: headers, body: notModified ? nil : file.bytes)
    }
}

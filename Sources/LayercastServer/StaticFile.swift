/// A file of `public/` as served: its bytes, their gzip when that is smaller and the type is
/// text, and its version (FNV-1a 64 of the bytes) from which both ETags are made.
struct StaticFile: Equatable {
    let bytes: [UInt8]
    /// The gzip body, or nil when the file is served only as it is.
    let gzipped: [UInt8]?
    let type: String
    /// 16 hex digits naming these bytes: a `?v=` query equal to it makes the URL immutable.
    let version: String

    init(bytes: [UInt8], type: String) {
        self.bytes = bytes
        self.type = type
        version = FNV1a.hex64(bytes)
        let compressed = Self.isText(type) ? Gzip.compress(bytes) : nil
        gzipped = compressed.flatMap { $0.count < bytes.count ? $0 : nil }
    }

    /// Whether answers depend on `Accept-Encoding` (`Vary: Accept-Encoding`): a text type.
    var varies: Bool { Self.isText(type) }

    /// The strong ETag of one representation: `"<version>"`, or `"<version>-gzip"` for the gzip body.
    func etag(gzip: Bool) -> String { gzip ? "\"\(version)-gzip\"" : "\"\(version)\"" }

    /// Bytes held in memory for this file.
    var footprint: Int { bytes.count + (gzipped?.count ?? 0) }

    /// Types worth compressing: html, js, css, svg, json, plain text, manifests.
    static func isText(_ type: String) -> Bool {
        type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("image/svg+xml")
            || type.hasPrefix("application/manifest+json")
    }
}

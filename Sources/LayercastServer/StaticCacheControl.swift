/// `Cache-Control` of the files of `public/` (docs/protocol.md, "Static files").
enum StaticCacheControl {
    /// For a URL that names its bytes: kept a year, never revalidated.
    static let immutable = "public, max-age=31536000, immutable"
    /// For every other URL: kept, but revalidated with `If-None-Match` before each use.
    static let revalidate = "no-cache"

    /// `immutable` when the request's `?v=` is the file's version, else `revalidate`.
    static func value(versionQuery: String?, version: String) -> String {
        versionQuery == version ? immutable : revalidate
    }
}

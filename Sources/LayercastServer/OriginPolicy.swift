/// Which browser origins may open WebSockets and frame the pages: the page's own origin, any
/// localhost origin, and the configured ones (`*` for all).
struct OriginPolicy {
    let allowed: [String]

    init(allowed: [String]) {
        self.allowed = allowed.map(Self.normalise)
    }

    /// Whether a handshake with this `Origin` (nil when absent: not a browser) and `Host` may proceed.
    func allows(origin: String?, host: String?) -> Bool {
        guard let origin, !origin.isEmpty else { return true }
        let o = Self.normalise(origin)
        if allowed.contains("*") || allowed.contains(o) { return true }
        if let host, o == "http://\(host.lowercased())" || o == "https://\(host.lowercased())" { return true }
        return ["localhost", "127.0.0.1", "[::1]"].contains(Self.hostName(of: o))
    }

    /// The Content-Security-Policy value that lets allowed origins put our pages in a frame.
    var frameAncestors: String {
        if allowed.contains("*") { return "frame-ancestors *" }
        let local = ["http://localhost:*", "https://localhost:*", "http://127.0.0.1:*", "https://127.0.0.1:*"]
        return (["frame-ancestors 'self'"] + local + allowed).joined(separator: " ")
    }

    private static func normalise(_ origin: String) -> String {
        var o = origin.lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        return o
    }

    /// The host part of `scheme://host[:port]`, with IPv6 literals kept in brackets.
    private static func hostName(of origin: String) -> String {
        guard let range = origin.range(of: "://") else { return "" }
        let rest = origin[range.upperBound...]
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[...close]) }
        return String(rest.prefix { $0 != ":" && $0 != "/" })
    }
}

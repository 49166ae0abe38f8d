import Foundation

/// The `If-None-Match` request header (RFC 9110 §13.1.2).
enum IfNoneMatch {
    /// Whether a request with `If-None-Match: header` already has the representation whose
    /// entity tag is `etag`: the header is `*` or lists it, compared weakly (`W/"…"` matches too).
    static func matches(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { tag in tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag }
    }
}

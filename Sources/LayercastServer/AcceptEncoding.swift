import Foundation

/// The `Accept-Encoding` request header (RFC 9110 §12.5.3), as far as static files need it.
enum AcceptEncoding {
    /// Whether a request with `Accept-Encoding: header` takes a gzip body: it lists `gzip`,
    /// `x-gzip` or `*` with a nonzero q-value. No header means identity only.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Bool?, any: Bool?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            switch coding {
            case "gzip", "x-gzip": gzip = q > 0
            case "*": any = q > 0
            default: break
            }
        }
        return gzip ?? any ?? false
    }
}

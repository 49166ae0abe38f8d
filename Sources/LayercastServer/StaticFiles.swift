import Foundation

/// Maps request paths to regular files under one root: no listings, nothing outside the root,
/// no hidden files.
struct StaticFiles {
    /// The root, resolved to a real absolute path.
    let root: String

    init(directory: String) throws(ServerError) {
        guard let real = realpath(directory, nil) else {
            throw .publicDirectory("public directory \"\(directory)\" does not exist")
        }
        defer { free(real) }
        root = String(cString: real)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .publicDirectory("public path \"\(directory)\" is not a directory")
        }
    }

    /// The file a decoded request path names, or nil (missing, a directory, hidden, or outside).
    func file(for path: String) -> String? {
        var path = path
        if path.hasSuffix("/") { path += "index.html" }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !path.contains("\0"), !segments.isEmpty,
              !segments.contains(where: { $0.hasPrefix(".") || $0.contains("\\") }) else { return nil }
        guard let real = realpath(root + "/" + segments.joined(separator: "/"), nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        guard resolved.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return resolved
    }

    /// The Content-Type for a file name, by extension.
    static func contentType(for file: String) -> String {
        let ext = file.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json", "map": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "webmanifest": return "application/manifest+json"
        default: return "application/octet-stream"
        }
    }
}

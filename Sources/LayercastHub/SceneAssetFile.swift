import Foundation
internal import LayercastDigest

/// An image file a scene ships as a resource, read whole at start: its bytes and its strong
/// entity tag, served at `/assets/{scene}/{path}` (docs/protocol.md, "Scene images").
package struct SceneAssetFile: Sendable, Equatable {
    /// The largest file served, 1 MiB: a scene's image is a sprite drawn on a canvas, and the
    /// service keeps every one in memory.
    package static let maxBytes = 1 << 20

    /// The file, as read at start.
    package let bytes: [UInt8]
    /// `"` + the first 16 bytes of the bytes' SHA-256 as 32 lowercase hex digits + `"`.
    package let etag: String

    /// The file of `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        let digest = SHA256.digest(bytes).prefix(16)
        etag = "\"" + digest.map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// Reads the file at `path`; throws a reason in words when it is missing, not a regular file,
    /// larger than `maxBytes` or unreadable.
    static func read(path: String) throws(SceneAssetFileError) -> SceneAssetFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .init("no such file") }
        guard !isDirectory.boolValue else { throw .init("a directory, not a file") }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw .init("cannot be read")
        }
        guard size <= maxBytes else { throw .init("\(size) bytes, more than the \(maxBytes) an image may have") }
        guard let data = FileManager.default.contents(atPath: path), data.count <= maxBytes else { throw .init("cannot be read") }
        return SceneAssetFile(bytes: Array(data))
    }

    /// Whether `path` may name a resource: 1–200 bytes of segments joined by `/`, each 1 or more
    /// of `A–Z a–z 0–9 . _ -` not starting with `.` (so no `..`, no hidden file, nothing to escape).
    package static func isValidPath(_ path: String) -> Bool {
        guard (1...200).contains(path.utf8.count) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && !segment.hasPrefix(".") && segment.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
        }
    }
}

/// Why a scene's image file cannot be served, in words.
struct SceneAssetFileError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

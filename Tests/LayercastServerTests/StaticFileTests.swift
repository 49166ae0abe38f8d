import CZlib
import Foundation
@testable import LayercastServer
import Testing

/// The pure parts of serving `public/`: gzip, the FNV-1a version, `Accept-Encoding`, the
/// `Cache-Control` choice, the served form of a file and the bounded cache of them.
@Suite struct StaticFileTests {
    /// `bytes` gunzipped with zlib's inflate (windowBits 31: the gzip wrapper).
    func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard layercast_inflate_init(&stream, 15 + 16) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes, output = [UInt8](repeating: 0, count: 1 << 20)
        let count: Int = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return inflate(&stream, Z_FINISH) == Z_STREAM_END ? out.count - Int(stream.avail_out) : -1
            }
        }
        return count < 0 ? nil : Array(output.prefix(count))
    }

    @Test func gzipRoundTrips() throws {
        let text = Array(String(repeating: "import { x } from './lib/x.js';\n", count: 200).utf8)
        let gz = try #require(Gzip.compress(text))
        #expect(gz.prefix(2) == [0x1f, 0x8b])
        #expect(gz.count < text.count / 10)
        #expect(gunzip(gz) == text)
        #expect(gunzip(try #require(Gzip.compress([]))) == [])
    }

    @Test func fnv1aMatchesItsReferenceVectors() {
        #expect(FNV1a.hash64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hex64(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(FNV1a.hex64(Array("foobar".utf8)) == "85944171f73967e8")
    }

    @Test func acceptEncodingTakesGzipUnlessRefused() {
        for header in ["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "x-gzip", "*", "deflate, *;q=0.1", "GZIP"] {
            #expect(AcceptEncoding.acceptsGzip(header), "\(header)")
        }
        for header in [nil, "", "identity", "br, deflate", "gzip;q=0", "*;q=0", "gzip;q=0, *"] as [String?] {
            #expect(!AcceptEncoding.acceptsGzip(header), "\(header ?? "nil")")
        }
    }

    @Test func onlyTheFilesVersionMakesAURLImmutable() {
        #expect(StaticCacheControl.value(versionQuery: "0123456789abcdef", version: "0123456789abcdef") == "public, max-age=31536000, immutable")
        for query in [nil, "", "1", "0123456789ABCDEF", "0123456789abcde0"] as [String?] {
            #expect(StaticCacheControl.value(versionQuery: query, version: "0123456789abcdef") == "no-cache")
        }
    }

    @Test func textIsCompressedAndFontsAreNot() throws {
        let script = StaticFile(bytes: Array(String(repeating: "export const a = 1;\n", count: 50).utf8), type: "text/javascript; charset=utf-8")
        #expect(script.varies)
        #expect(gunzip(try #require(script.gzipped)) == script.bytes)
        #expect(script.etag(gzip: false) == "\"\(script.version)\"")
        #expect(script.etag(gzip: true) == "\"\(script.version)-gzip\"")
        let font = StaticFile(bytes: Array(repeating: 7, count: 4096), type: "font/woff2")
        #expect(font.gzipped == nil && !font.varies)
        let tiny = StaticFile(bytes: Array("x".utf8), type: "text/css; charset=utf-8")
        #expect(tiny.gzipped == nil && tiny.varies)  // gzip would be larger
        #expect(StaticFile.isText("image/svg+xml") && StaticFile.isText("application/json") && !StaticFile.isText("image/png"))
    }

    @Test func theCacheRereadsAChangedFileAndStaysWithinItsCapacity() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("static-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = StaticFileCache(capacity: 3000, largestFile: 2000)
        let a = directory.appendingPathComponent("a.js").path, b = directory.appendingPathComponent("b.woff2").path
        try Data(repeating: 65, count: 1000).write(to: URL(fileURLWithPath: a))
        try Data(repeating: 1, count: 1500).write(to: URL(fileURLWithPath: b))
        let first = try #require(cache.file(at: a))
        #expect(cache.file(at: a) == first)
        try Data(repeating: 66, count: 1001).write(to: URL(fileURLWithPath: a))
        let second = try #require(cache.file(at: a))
        #expect(second.bytes.count == 1001 && second.version != first.version)
        _ = cache.file(at: b)
        #expect(cache.bytesHeld <= 3000)
        let large = directory.appendingPathComponent("c.woff2").path
        try Data(repeating: 2, count: 2500).write(to: URL(fileURLWithPath: large))
        #expect(cache.file(at: large)?.bytes.count == 2500)  // served, not kept
        #expect(cache.bytesHeld <= 3000)
        let d = directory.appendingPathComponent("d.woff2").path
        try Data(repeating: 3, count: 1500).write(to: URL(fileURLWithPath: d))
        _ = cache.file(at: d)  // a (served least recently) goes
        #expect(cache.bytesHeld == 3000)
        #expect(cache.file(at: directory.appendingPathComponent("none").path) == nil)
    }
}

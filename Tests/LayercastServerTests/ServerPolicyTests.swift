import Foundation
import Testing
@testable import LayercastServer

@Suite struct OriginPolicyTests {
    let policy = OriginPolicy(allowed: ["https://app.example.com/"])

    @Test func scriptsWithoutOriginAreAccepted() {
        #expect(policy.allows(origin: nil, host: "127.0.0.1:8080"))
    }

    @Test func sameOriginAndLocalhostAreAccepted() {
        #expect(policy.allows(origin: "http://layercast.test:8080", host: "layercast.test:8080"))
        #expect(policy.allows(origin: "http://localhost:3000", host: "10.0.0.5:8080"))
        #expect(policy.allows(origin: "http://127.0.0.1:9", host: "10.0.0.5:8080"))
        #expect(policy.allows(origin: "http://[::1]:9", host: "10.0.0.5:8080"))
    }

    @Test func configuredOriginsMatchWithoutTrailingSlashOrCase() {
        #expect(policy.allows(origin: "HTTPS://app.example.com", host: "10.0.0.5:8080"))
        #expect(!policy.allows(origin: "https://evil.example.com", host: "10.0.0.5:8080"))
        #expect(!policy.allows(origin: "http://localhost.evil.com", host: "10.0.0.5:8080"))
    }

    @Test func wildcardAllowsAnyAndFramesForAll() {
        let open = OriginPolicy(allowed: ["*"])
        #expect(open.allows(origin: "https://anyone.example", host: "x"))
        #expect(open.frameAncestors == "frame-ancestors *")
        #expect(policy.frameAncestors.hasPrefix("frame-ancestors 'self' "))
        #expect(policy.frameAncestors.hasSuffix(" https://app.example.com"))
    }
}

@Suite struct StaticFilesTests {
    /// A scratch public directory with an index, a nested file, a hidden file and a secret beside it.
    func makeRoot() throws -> (root: String, files: StaticFiles) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("layercast-static-\(UUID().uuidString)")
        let root = base.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try Data("<h1>hi</h1>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("<svg/>".utf8).write(to: root.appendingPathComponent("assets/a.svg"))
        try Data("x".utf8).write(to: root.appendingPathComponent(".env"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.txt"),
                                                   withDestinationURL: base.appendingPathComponent("secret.txt"))
        return (root.path, try StaticFiles(directory: root.path))
    }

    @Test func servesFilesAndIndex() throws {
        let (root, files) = try makeRoot()
        let real = files.root
        #expect(real.hasSuffix("/public") && root.hasSuffix("/public"))
        #expect(files.file(for: "/") == real + "/index.html")
        #expect(files.file(for: "/assets/a.svg") == real + "/assets/a.svg")
    }

    @Test func refusesDirectoriesHiddenFilesEscapesAndSymlinksOut() throws {
        let (_, files) = try makeRoot()
        #expect(files.file(for: "/assets") == nil)
        #expect(files.file(for: "/.env") == nil)
        #expect(files.file(for: "/../secret.txt") == nil)
        #expect(files.file(for: "/assets/../../secret.txt") == nil)
        #expect(files.file(for: "/link.txt") == nil)
        #expect(files.file(for: "/missing.js") == nil)
    }

    @Test func missingRootIsAnError() {
        #expect(throws: ServerError.self) { try StaticFiles(directory: "/nonexistent/layercast-public") }
    }

    @Test func contentTypes() {
        #expect(StaticFiles.contentType(for: "/a/index.html") == "text/html; charset=utf-8")
        #expect(StaticFiles.contentType(for: "layercast.js") == "text/javascript; charset=utf-8")
        #expect(StaticFiles.contentType(for: "style.css") == "text/css; charset=utf-8")
        #expect(StaticFiles.contentType(for: "radar-item.SVG") == "image/svg+xml")
        #expect(StaticFiles.contentType(for: "blob") == "application/octet-stream")
    }
}

@Suite struct TrustedProxiesTests {
    @Test func theClientIsThePeerUnlessThePeerIsATrustedProxy() throws {
        let proxies = try TrustedProxies(["127.0.0.1/32", "10.0.0.0/8", "::1"])
        #expect(proxies.clientAddress(peer: "192.0.2.7", forwardedFor: "203.0.113.9") == "192.0.2.7")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
        // The rightmost hop that is not a trusted proxy: a client cannot forge its way past nginx.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "1.2.3.4, 203.0.113.9, 10.1.2.3") == "203.0.113.9")
        #expect(proxies.clientAddress(peer: "::ffff:127.0.0.1", forwardedFor: "198.51.100.1") == "198.51.100.1")
        #expect(proxies.clientAddress(peer: "::1", forwardedFor: "2001:db8::1") == "2001:db8::1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: "not an address") == "127.0.0.1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
    }

    @Test func malformedNetworksAreRefused() {
        #expect(throws: ServerError.self) { try TrustedProxies(["127.0.0.1/33"]) }
        #expect(throws: ServerError.self) { try TrustedProxies(["localhost"]) }
        #expect(throws: ServerError.self) { try TrustedProxies(["::1/129"]) }
    }
}

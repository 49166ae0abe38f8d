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

@Suite struct InputLimitTests {
    @Test func tokenBucketAllowsBurstThenRate() {
        var limiter = RateLimiter(rate: 20, burst: 20)
        let allowedAtOnce = (0..<30).filter { _ in limiter.allow(at: 100) }.count
        #expect(allowedAtOnce == 20)
        // 0.25 s later the bucket has refilled 20 × 0.25 = 5 tokens.
        let allowedLater = (0..<10).filter { _ in limiter.allow(at: 100.25) }.count
        #expect(allowedLater == 5)
    }

    @Test func abuseWindowTripsAtLimitWithinWindow() {
        var window = AbuseWindow(limit: 3, window: 10)
        let results = [0, 5, 10.5, 11].map { window.record(at: $0) }
        // At 10.5 the event at 0 has left the window, so only at 11 are three (5, 10.5, 11) inside.
        #expect(results == [false, false, false, true])
    }

    @Test func tapTimeIsClampedToTheLast300ms() {
        #expect(Room.resolutionTime(viewTime: 9.9, now: 10) == 9.9)
        #expect(Room.resolutionTime(viewTime: 5, now: 10) == 10 - 0.3)
        #expect(Room.resolutionTime(viewTime: 12, now: 10) == 10)
    }

    @Test func joinRequestsAreValidated() throws {
        let ok = try JoinRequest.parse(["scene": "radar", "room": "a_b-9", "role": "spectator"], identities: .anonymousForTests).get()
        #expect(ok.room == "a_b-9" && ok.role == .spectator && ok.scene.info.id == "radar")
        let defaults = try JoinRequest.parse(["scene": "radar"], identities: .anonymousForTests).get()
        #expect(defaults.room == "lobby" && defaults.role == .player)
        func code(_ arguments: [String: String]) -> String? {
            if case .failure(let error) = JoinRequest.parse(arguments, identities: .anonymousForTests) { return error.code.rawValue }
            return nil
        }
        #expect(code([:]) == "unknown_scene")
        #expect(code(["scene": "tetris"]) == "unknown_scene")
        #expect(code(["scene": "radar", "room": ""]) == "bad_room")
        #expect(code(["scene": "radar", "room": String(repeating: "a", count: 33)]) == "bad_room")
        #expect(code(["scene": "radar", "room": "a/b"]) == "bad_room")
        #expect(code(["scene": "radar", "role": "admin"]) == "bad_role")
    }
}

@Suite struct MetricsTests {
    @Test func histogramBucketsAreCumulative() {
        var histogram = Histogram(bounds: [0.01, 0.1])
        histogram.observe(0.005)
        histogram.observe(0.05)
        histogram.observe(2)
        let text = histogram.render(name: "h")
        #expect(text.contains("h_bucket{le=\"0.01\"} 1\n"))
        #expect(text.contains("h_bucket{le=\"0.1\"} 2\n"))
        #expect(text.contains("h_bucket{le=\"+Inf\"} 3\n"))
        #expect(text.contains("h_count 3\n"))
    }

    @Test func exposesEveryRejectionReason() {
        var metrics = Metrics()
        metrics.rejected[.badJSON] = 2
        let text = metrics.render(rooms: 1, players: 2, spectators: 3)
        #expect(text.contains("layercast_messages_rejected_total{reason=\"bad_json\"} 2\n"))
        #expect(text.contains("layercast_messages_rejected_total{reason=\"rate_limited\"} 0\n"))
        #expect(text.contains("layercast_clients{role=\"spectator\"} 3\n"))
    }
}

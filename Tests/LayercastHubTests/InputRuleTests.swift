import Foundation
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastHub

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
        #expect(SceneStage.resolutionTime(viewTime: 9.9, now: 10) == 9.9)
        #expect(SceneStage.resolutionTime(viewTime: 5, now: 10) == 10 - 0.3)
        #expect(SceneStage.resolutionTime(viewTime: 12, now: 10) == 10)
    }

    @Test func joinRequestsAreValidated() throws {
        let ok = try JoinRequest.parse(["scene": "radar", "room": "a_b-9", "role": "spectator"], identities: .anonymousForTests).get()
        #expect(ok.room == "a_b-9" && ok.role == .spectator && ok.sceneID == "radar")
        let defaults = try JoinRequest.parse(["scene": "radar"], identities: .anonymousForTests).get()
        #expect(defaults.room == "lobby" && defaults.role == .player)
        func code(_ arguments: [String: String]) -> String? {
            if case .failure(let error) = JoinRequest.parse(arguments, identities: .anonymousForTests) { return error.code.rawValue }
            return nil
        }
        #expect(code([:]) == "unknown_scene")
        #expect(code(["scene": "tetris"]) == nil)  // a well-formed id: whether it is registered is the hub's to say (JoinTests)
        #expect(code(["scene": "te tris"]) == "unknown_scene")
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
        var metrics = Metrics(tapRules: [(scene: "rain", rules: ["max_awards", "too_soon"])])
        metrics.rejected[.badJSON] = 2
        metrics.countRefusal(scene: "rain", rule: "too_soon")
        metrics.countRefusal(scene: "rain", rule: "too_soon")
        metrics.countRefusal(scene: "rain", rule: "too_soon")
        metrics.countRefusal(scene: "rain", rule: "too_soon")
        let text = metrics.render(rooms: 1, players: 2, spectators: 3)
        #expect(text.contains("layercast_messages_rejected_total{reason=\"bad_json\"} 2\n"))
        #expect(text.contains("layercast_messages_rejected_total{reason=\"rate_limited\"} 0\n"))
        #expect(text.contains("layercast_clients{role=\"spectator\"} 3\n"))
        #expect(text.contains("layercast_claims_refused_total{scene=\"rain\",rule=\"max_awards\"} 0\nlayercast_claims_refused_total{scene=\"rain\",rule=\"too_soon\"} 4\n"))
        #expect(text.contains("layercast_rain_claims_refused_total{rule=\"max_awards\"} 0\nlayercast_rain_claims_refused_total{rule=\"too_soon\"} 4\n"))
    }
}

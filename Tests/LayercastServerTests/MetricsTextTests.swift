import Foundation
@testable import LayercastHub
@testable import LayercastServer
import Testing

/// The whole `/metrics` text for given counters, the hub's with its transport's families, byte for
/// byte (Tests/LayercastHubTests/metrics.prom): names, order, label order, HELP and TYPE lines.
@Suite struct MetricsTextTests {
    @Test func rendersEveryFamilyExactly() throws {
        var metrics = Metrics(tapRules: [(scene: "rain", rules: ["too_soon", "max_awards"])])
        var transport = TransportMetrics()
        metrics.fullFramesEncoded = 4
        metrics.deltaFramesEncoded = 5
        metrics.bytesSent = 6
        metrics.messagesDeflated = 7
        metrics.deflatedBytesSent = 8
        metrics.partialWrites = 9
        metrics.framesSkipped = 10
        metrics.awards = 11
        metrics.sceneAwards["rain"] = 11
        metrics.clientsDropped["stalled"] = 12
        metrics.rejected[.badJSON] = 13
        metrics.rejected[.notReady] = 14
        metrics.claimRefusals["rain"]?["too_soon"] = 15
        metrics.takeovers[.resumed] = 16
        metrics.takeovers[.superseded] = 17
        metrics.sceneTakeovers["rain"] = [.resumed: 16, .superseded: 17]
        metrics.addressRefusals[.taps] = 18
        transport.httpRefused["body_timeout"] = 19
        transport.apiErrors[.notFound] = 20
        transport.apiErrors[.badJSON] = 21
        transport.webSocketViolations["close_code"] = 22
        metrics.stepDowns[.redis] = 23
        metrics.stepDowns[.fenced] = 24
        metrics.tapLatency.observe(0.25)
        metrics.tapLatency.observe(2)
        // The expected text stays beside the hub's tests, which exclude it from their target.
        let expected = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../LayercastHubTests/metrics.prom"), encoding: .utf8)
        #expect(metrics.render(rooms: 1, players: 2, spectators: 3, refusedAnimations: 4, transport: transport.write(into:)) == expected)
    }
}

@testable import LayercastLoad
import Testing

@Suite struct SimulatedClientTests {
    private func openClient() throws -> SimulatedClient {
        let client = SimulatedClient(index: 0, startAt: 0, configuration: LoadConfiguration(target: try LoadTarget(url: "http://127.0.0.1:8080")))
        var stats = LoadStats()
        client.established(at: 1, stats: &stats)
        return client
    }

    @Test func anEmptyOutboxHasNoMessage() throws {
        let client = try openClient()
        #expect(client.takeMessage() == nil)
    }

    @Test func aDuePingIsTakenOnceThenNothing() throws {
        let client = try openClient()
        var stats = LoadStats()
        #expect(client.poll(at: 1, stats: &stats))
        #expect(client.takeMessage()?["type"]?.stringValue == "ping")
        #expect(client.takeMessage() == nil)
    }

    @Test func anAnsweredTapIsTimedForTheReportAndForTheSecondsWindow() throws {
        var configuration = LoadConfiguration(target: try LoadTarget(url: "http://127.0.0.1:8080"))
        configuration.role = .player
        configuration.tapsPerSecond = 5
        let client = SimulatedClient(index: 0, startAt: 0, configuration: configuration)
        var stats = LoadStats(), window = ProgressWindow()
        func receive(_ text: String, at now: Double) {
            Array(text.utf8).withUnsafeBytes { client.receive($0, at: now, stats: &stats, window: &window) }
        }
        client.established(at: 1, stats: &stats)
        receive(#"{"type":"welcome","client":"c1","size":{"width":100,"height":100},"time":0}"#, at: 1.01)
        receive(#"{"type":"frame","n":1,"t":0.5}"#, at: 1.02)
        #expect(client.poll(at: 1.3, stats: &stats))  // the first tap is due within 1/5 s of the handshake
        #expect(stats.tapsSent == 1)
        receive(#"{"type":"event","name":"tap","by":"c1","data":{"id":1,"result":"miss"}}"#, at: 1.325)
        #expect(stats.tapsAnswered == 1 && stats.tapResults == ["miss": 1])
        // 25 ms, within the histogram's 3 significant digits.
        #expect(abs(stats.tapLatency.summary.p99 - 25) < 0.025)
        #expect(window.tapLatency.count == 1 && abs(window.tapLatency.summary.p99 - 25) < 0.025)
    }
}

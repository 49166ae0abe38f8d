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
}

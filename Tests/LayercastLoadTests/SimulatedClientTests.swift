@testable import LayercastLoad
import LayercastJSON
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

    @Test func aClientOfAPopulationWithoutPingsNeverPings() throws {
        var page = Scenario.Population(name: "page", size: .count(1), role: .spectator)
        page.pingsPerSecond = 0
        let client = SimulatedClient(index: 0, population: 0, slot: 0, behaviour: page, joinAt: 0, pingInterval: 1 / 0.0)
        var stats = LoadStats()
        client.established(at: 1, stats: &stats)
        #expect(!client.poll(at: 1, stats: &stats))
        #expect(!client.poll(at: 1_000, stats: &stats))
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

    @Test func aDragGestureBeginsMovesDownAPullAndEnds() throws {
        var dragger = Scenario.Population(name: "d", size: .count(1), role: .player)
        dragger.dragsPerSecond = 2
        dragger.dragSteps = 3
        let client = SimulatedClient(index: 0, population: 0, slot: 0, behaviour: dragger, joinAt: 0, pingInterval: 100)
        var stats = LoadStats(), window = ProgressWindow()
        func receive(_ text: String, at now: Double) {
            Array(text.utf8).withUnsafeBytes { client.receive($0, at: now, stats: &stats, window: &window) }
        }
        client.established(at: 1, stats: &stats)
        receive(#"{"type":"welcome","client":"c1","size":{"width":200,"height":400},"time":0}"#, at: 1.01)
        receive(#"{"type":"frame","n":1,"t":0.5}"#, at: 1.02)
        _ = client.poll(at: 1.02, stats: &stats)
        #expect(client.takeMessage()?["type"]?.stringValue == "ping")
        // Within 1/2 s of the handshake the gesture begins; a quarter second later it has ended.
        var drags: [JSONValue] = []
        var now = 1.02
        while now < 2.0 {
            now += 0.01
            _ = client.poll(at: now, stats: &stats)
            while let message = client.takeMessage() {
                if message["type"]?.stringValue == "drag" { drags.append(message) }
            }
            if drags.last?["phase"]?.stringValue == "ended" { break }
        }
        #expect(drags.map { $0["phase"]?.stringValue } == ["began", "moved", "moved", "moved", "ended"])
        let x = try #require(drags.first?["x"]?.doubleValue), y = try #require(drags.first?["y"]?.doubleValue)
        #expect((0...200).contains(x) && (0...200).contains(y))  // the upper half
        #expect(drags.allSatisfy { $0["x"]?.doubleValue == x && $0["viewTime"]?.doubleValue == 0.5 })
        let ys: [Double] = drags.compactMap { $0["y"]?.doubleValue }
        let expected: [Double] = [0, 40, 80, 120, 120].map { y + $0 }
        let offsets: [Double] = zip(ys, expected).map { abs($0.0 - $0.1) }
        #expect(ys.count == 5 && offsets.allSatisfy { $0 < 0.006 })  // 120 pt down, rounded to 0.01
        #expect(stats.dragsBegun == 1 && stats.dragMessagesSent == 5)
    }

    /// The acks of a client of an `acks` population, on a connection whose welcome has `features`.
    private func acks(features: String) -> (acks: [Double], sent: Int) {
        var weak = Scenario.Population(name: "weak", size: .count(1), role: .spectator)
        weak.acks = true
        let client = SimulatedClient(index: 0, population: 0, slot: 0, behaviour: weak, joinAt: 0, pingInterval: .infinity)
        var stats = LoadStats(), window = ProgressWindow()
        func receive(_ text: String, at now: Double) {
            Array(text.utf8).withUnsafeBytes { client.receive($0, at: now, stats: &stats, window: &window) }
        }
        client.connecting(at: 0.9, stats: &stats)
        client.established(at: 1, stats: &stats)
        receive(#"{"type":"welcome","client":"c1","time":0,"features":\#(features)}"#, at: 1.01)
        receive(#"{"type":"frame","n":7,"t":0.2,"full":true,"items":[]}"#, at: 1.02)
        receive(#"{"type":"frame","n":9,"t":0.27,"full":false,"b":7}"#, at: 1.03)
        var messages: [JSONValue] = []
        while let message = client.takeMessage() { messages.append(message) }
        #expect(messages.allSatisfy { $0["type"]?.stringValue == "ack" })
        return (messages.compactMap { $0["n"]?.doubleValue }, stats.acksSent)
    }

    @Test func anAckingClientAcksEveryFrameOnlyWhenTheServerTakesAcks() {
        #expect(acks(features: #"["sparse","acks"]"#) == ([7, 9], 2))
        #expect(acks(features: #"["sparse"]"#) == ([], 0))
    }

    @Test func theViewAgeIsFromTheNewestFrameEvenWhenAnOlderOneArrivesAfterIt() {
        let client = SimulatedClient(index: 0, population: 0, slot: 0, behaviour: .init(name: "w", size: .count(1), role: .spectator),
                                     joinAt: 0, pingInterval: .infinity)
        var stats = LoadStats(), window = ProgressWindow()
        func receive(_ text: String, at now: Double) {
            Array(text.utf8).withUnsafeBytes { client.receive($0, at: now, stats: &stats, window: &window) }
        }
        client.established(at: 100, stats: &stats)
        receive(#"{"type":"welcome","client":"c1","time":10}"#, at: 100)  // media time 0 at 90
        receive(#"{"type":"frame","n":30,"t":10.5,"full":true,"items":[]}"#, at: 100.6)  // 0.1 s old
        receive(#"{"type":"frame","n":20,"t":10.2,"full":true,"items":[]}"#, at: 101)  // the view still shows 10.5: 0.5 s old
        #expect(stats.frameAge.count == 2 && stats.errors["out_of_order"] == 1)
        #expect(abs(stats.frameAge.summary.max - 500) < 0.5 && abs(stats.frameAge.summary.p50 - 100) < 0.1)
    }

    @Test func aCappedClientAsksToPauseWhenItsBudgetIsSpentAndToResumeWhenItRefills() {
        var weak = Scenario.Population(name: "weak", size: .count(1), role: .spectator)
        weak.readBytesPerSecond = 8192
        let client = SimulatedClient(index: 0, population: 0, slot: 0, behaviour: weak, joinAt: 0, pingInterval: .infinity)
        var stats = LoadStats()
        client.connecting(at: 0, stats: &stats)
        #expect(client.readBudget == ReadBudget(bytesPerSecond: 8192, at: 0))
        #expect(!client.read(1000, at: 0))  // 24 of the 1024 left
        #expect(client.read(2048, at: 0))  // spent: pause
        client.readPaused = true
        #expect(!client.refillReads(at: 0.1))  // 819.2 of the 2024 owed
        #expect(client.refillReads(at: 0.3))
        let uncapped = SimulatedClient(index: 1, population: 0, slot: 1, behaviour: .init(name: "w", size: .count(2), role: .spectator),
                                       joinAt: 0, pingInterval: .infinity)
        uncapped.connecting(at: 0, stats: &stats)
        #expect(uncapped.readBudget == nil && !uncapped.read(1 << 30, at: 0) && !uncapped.refillReads(at: 1))
    }

    @Test func aReconnectIsTimedToItsWelcomeAndToItsFirstFrame() throws {
        var watcher = Scenario.Population(name: "w", size: .count(1), role: .spectator)
        watcher.reconnect = true
        let client = SimulatedClient(index: 0, population: 0, slot: 0, behaviour: watcher, joinAt: 0, pingInterval: 100)
        var stats = LoadStats(), window = ProgressWindow()
        func receive(_ text: String, at now: Double) {
            Array(text.utf8).withUnsafeBytes { client.receive($0, at: now, stats: &stats, window: &window) }
        }
        let welcome = #"{"type":"welcome","client":"c1","size":{"width":100,"height":100},"time":0}"#
        client.connecting(at: 0, stats: &stats)
        client.established(at: 0.1, stats: &stats)
        receive(welcome, at: 0.2)
        receive(#"{"type":"frame","n":1,"t":0.1}"#, at: 0.3)
        #expect(stats.reconnectTime.count == 0 && stats.reconnectFrameTime.count == 0)  // a first join is no reconnect

        // Dropped at 1 s; back at 1.6 s (welcome at 1.7 s), frames from 1.9 s: 700 ms and 900 ms.
        client.closed(at: 1, finished: false, stats: &stats)
        client.connecting(at: 1.5, stats: &stats)
        client.established(at: 1.6, stats: &stats)
        receive(welcome, at: 1.7)
        receive(#"{"type":"frame","n":40,"t":1.8}"#, at: 1.9)
        receive(#"{"type":"frame","n":41,"t":1.83}"#, at: 1.93)
        #expect(stats.reconnected == 1 && stats.reconnectTime.count == 1 && stats.reconnectFrameTime.count == 1)
        #expect(abs(stats.reconnectTime.summary.max - 700) < 0.7 && abs(stats.reconnectFrameTime.summary.max - 900) < 0.9)

        // Dropped at 3 s, welcomed at 3.4 s, dropped again at 3.5 s before a frame: that reconnect
        // has no first frame. The next is timed from 3.5 s: welcome at 4 s, frame at 4.25 s.
        client.closed(at: 3, finished: false, stats: &stats)
        client.connecting(at: 3.3, stats: &stats)
        client.established(at: 3.35, stats: &stats)
        receive(welcome, at: 3.4)
        client.closed(at: 3.5, finished: false, stats: &stats)
        client.connecting(at: 3.9, stats: &stats)
        client.established(at: 3.95, stats: &stats)
        receive(welcome, at: 4)
        receive(#"{"type":"frame","n":100,"t":4.2}"#, at: 4.25)
        #expect(stats.reconnects == 3 && stats.reconnected == 3 && stats.reconnectTime.count == 3 && stats.reconnectFrameTime.count == 2)
        // First frames 900 and 750 ms; reconnects 700, 400 and 500 ms.
        #expect(abs(stats.reconnectFrameTime.summary.p50 - 750) < 0.75 && abs(stats.reconnectTime.summary.p50 - 500) < 0.5)
    }
}

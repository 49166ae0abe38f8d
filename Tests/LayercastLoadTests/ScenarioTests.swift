import Foundation
@testable import LayercastLoad
import Testing

@Suite struct ScenarioParserTests {
    private func refusal(_ text: String, allowedRemote: [String] = []) -> ScenarioError? {
        do {
            _ = try ScenarioParser.parse(text, file: "s.yaml", allowedRemote: allowedRemote)
            return nil
        } catch {
            return error
        }
    }

    private let twoPopulations = """
        name: night
        url: ws://127.0.0.1:9000
        scene: rain
        room: campaign
        populations:
          - name: watchers
            weight: 3
          - name: tappers
            weight: 1
            behaviour: tap
            taps: 2
            aim: aim
            churn: {stay: [1, 2], away: 0.5}
            reconnect: true
            thresholds: {maxP99TapMs: 250, maxP99ReconnectMs: 5000, maxP99ReconnectFirstFrameMs: 6000}
        stages:
          - {name: ramp, start: 0, end: 10, clients: 100}
          - {name: hold, start: 10, end: 20, clients: 100}
          - {name: drop, start: 20, end: 20, clients: 0}
        duration: 25
        thresholds: {maxSkipRatio: 0.01}
        """

    @Test func aScenarioReadsWithItsPopulationsStagesAndThresholds() throws {
        let scenario = try ScenarioParser.parse(twoPopulations)
        #expect(scenario.name == "night")
        #expect(scenario.urls == [try LoadTarget(url: "ws://127.0.0.1:9000")])
        #expect(scenario.scene == "rain" && scenario.room == "campaign")
        #expect(scenario.duration == 25)
        #expect(scenario.populations.map(\.name) == ["watchers", "tappers"])
        #expect(scenario.populations[0].role == .spectator && scenario.populations[0].size == .weight(3))
        let tappers = scenario.populations[1]
        #expect(tappers.role == .player && tappers.tapsPerSecond == 2 && tappers.aim == .aim && tappers.reconnect)
        #expect(tappers.churn == .init(stay: .init(1, 2), away: .init(0.5, 0.5)))
        #expect(tappers.thresholds.maxP99TapMs == 250 && tappers.thresholds.maxP99ReconnectMs == 5000)
        #expect(tappers.thresholds.maxP99ReconnectFirstFrameMs == 6000 && scenario.populations[0].thresholds.isEmpty)
        #expect(scenario.thresholds.maxSkipRatio == 0.01)
        #expect(scenario.stages.map(\.clients) == [100, 100, 0])
        #expect(scenario.slots == [75, 25] && scenario.offsets == [0, 75] && scenario.clients == 100)
    }

    @Test func theSameScenarioInJSONReadsTheSame() throws {
        let json = """
            {"name": "night", "url": "ws://127.0.0.1:9000", "scene": "rain", "room": "campaign",
             "populations": [{"name": "watchers", "weight": 3},
                             {"name": "tappers", "weight": 1, "behaviour": "tap", "taps": 2, "aim": "aim",
                              "churn": {"stay": [1, 2], "away": 0.5}, "reconnect": true,
                              "thresholds": {"maxP99TapMs": 250, "maxP99ReconnectMs": 5000, "maxP99ReconnectFirstFrameMs": 6000}}],
             "stages": [{"name": "ramp", "start": 0, "end": 10, "clients": 100},
                        {"name": "hold", "start": 10, "end": 20, "clients": 100},
                        {"name": "drop", "start": 20, "end": 20, "clients": 0}],
             "duration": 25, "thresholds": {"maxSkipRatio": 0.01}}
            """
        #expect(try ScenarioParser.parse(json, file: "s.json") == ScenarioParser.parse(twoPopulations))
    }

    @Test func stagesRampHoldAndDropAndTheWeightsShareEveryTarget() throws {
        let scenario = try ScenarioParser.parse(twoPopulations)
        #expect(scenario.target(at: 0) == 0)
        #expect(scenario.target(at: 5) == 50)
        #expect(scenario.target(at: 15) == 100)
        #expect(scenario.target(at: 20) == 0 && scenario.target(at: 24) == 0)
        for total in 0...100 {
            #expect(scenario.share(of: total, population: 0) + scenario.share(of: total, population: 1) == total)
        }
        #expect(scenario.wanted(population: 0, at: 5) == 37 && scenario.wanted(population: 1, at: 5) == 13)
        #expect(scenario.wanted(population: 0, at: 12) == 75 && scenario.wanted(population: 1, at: 21) == 0)
    }

    @Test func todaysFlagsAreOneCountedPopulationOnTheirRamp() throws {
        var configuration = LoadConfiguration(target: try LoadTarget(url: "ws://127.0.0.1:8080"))
        configuration.clients = 10
        configuration.rampPerSecond = 4
        configuration.role = .player
        configuration.tapsPerSecond = 2
        let scenario = Scenario(single: configuration)
        #expect(scenario.clients == 10 && scenario.populations.count == 1 && scenario.populations[0].role == .player)
        // Client K starts at K / ramp, as before scenarios.
        #expect(scenario.wanted(population: 0, at: 0) == 1)
        #expect(scenario.wanted(population: 0, at: 0.24) == 1)
        #expect(scenario.wanted(population: 0, at: 0.25) == 2)
        #expect(scenario.wanted(population: 0, at: 100) == 10)
        let seventh = scenario.slot(ofClient: 7)
        #expect(seventh.population == 0 && seventh.slot == 7)
    }

    @Test func countedPopulationsFollowEachOtherInTheClientNumbers() throws {
        let scenario = try ScenarioParser.parse("""
            duration: 5
            populations: [{name: a, count: 3}, {name: b, count: 2, behaviour: tap}]
            """)
        #expect(scenario.clients == 5)
        let slots = (0..<5).map { scenario.slot(ofClient: $0) }
        #expect(slots.map(\.population) == [0, 0, 0, 1, 1] && slots.map(\.slot) == [0, 1, 2, 0, 1])
        #expect(scenario.populations[1].tapsPerSecond == 1)  // tap's default rate
    }

    @Test func draggersDragOnceASecondInFourStepsByDefault() throws {
        let scenario = try ScenarioParser.parse("""
            duration: 5
            populations: [{name: pullers, count: 2, behaviour: drag}, {name: fast, count: 1, behaviour: drag, drags: 4, steps: 10}]
            """)
        let (pullers, fast) = (scenario.populations[0], scenario.populations[1])
        #expect(pullers.role == .player && pullers.dragsPerSecond == 1 && pullers.dragSteps == 4 && pullers.tapsPerSecond == 0)
        #expect(fast.dragsPerSecond == 4 && fast.dragSteps == 10)
        #expect(pullers.behaviourText == "drag 1/s in 4 steps")
    }

    @Test func pingsAreThePopulationsOwnOrTheRunsEveryTwoSeconds() throws {
        let scenario = try ScenarioParser.parse("""
            duration: 5
            populations: [{name: page, count: 2, pings: 0}, {name: often, count: 1, pings: 4}, {name: plain, count: 1}]
            """)
        #expect(scenario.populations.map(\.pingsPerSecond) == [0, 4, nil])
        #expect(scenario.populations[0].behaviourText == "spectate, no pings")
        #expect(scenario.populations[1].behaviourText == "spectate, 4 pings/s")
    }

    @Test func aPopulationMayCapItsReadsAndAcknowledgeFrames() throws {
        let scenario = try ScenarioParser.parse("""
            duration: 5
            populations:
              - {name: weak, count: 2, readBytesPerSecond: 8192, acks: true}
              - {name: fractional, count: 1, readBytesPerSecond: 1500.5, acks: false}
              - {name: plain, count: 1}
            """)
        #expect(scenario.populations.map(\.readBytesPerSecond) == [8192, 1500.5, nil])
        #expect(scenario.populations.map(\.acks) == [true, false, false])
        #expect(scenario.populations[0].behaviourText == "spectate, reads ≤ 8.0 KiB/s, acks")
        #expect(scenario.populations[2].behaviourText == "spectate")
    }

    @Test(arguments: [
        ("-8192", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
        ("0", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
        ("255", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
        (".nan", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
        (".inf", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
        ("1e12", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
        ("'8192'", "readBytesPerSecond: must be bytes a second, 256…1073741824"),
    ])
    func aReadCapOutOfRangeIsRefusedWithItsLine(value: String, words: String) {
        let error = refusal("duration: 5\npopulations:\n  - name: a\n    count: 1\n    readBytesPerSecond: \(value)\n")
        #expect(error?.line == 5 && error?.path == "populations[0].readBytesPerSecond", "\(error?.description ?? "accepted")")
        #expect(error?.description.contains(words) == true, "\(error?.description ?? "accepted")")
    }

    @Test(arguments: ["yes please", "1", "'true'"])
    func acksThatAreNotTrueOrFalseAreRefused(value: String) {
        let error = refusal("duration: 5\npopulations: [{name: a, count: 1, acks: \(value)}]\n")
        #expect(error?.path == "populations[0].acks" && error?.message == "must be true or false", "\(error?.description ?? "accepted")")
    }

    @Test(arguments: [
        ("populations: [{name: a, count: 1}]\nduration: 5\nspeed: 3\n", 3, "speed: unknown key"),
        ("duration: 5\npopulations:\n  - {name: a, count: 1}\n  - {name: b, count: 1, pings: -1}\n", 4,
         "populations[1].pings: must be ping messages a second, 0…10"),
        ("duration: 5\npopulations:\n  - name: a\n    count: -2\n", 4, "populations[0].count: must be a whole number of clients"),
        ("duration: 5\npopulations:\n  - name: a\n    count: 2\n    colour: red\n", 5, "populations[0].colour: unknown key"),
        ("populations: [{name: a, weight: 1}]\nstages:\n  - {start: 0, end: 10, clients: 5}\n  - {start: 8, end: 12, clients: 9}\n", 4,
         "stages[1].start: overlaps stages[0]"),
        ("url: ws://10.0.0.1:8080\nduration: 5\npopulations: [{name: a, count: 1}]\n", 1, "url: refusing to load 10.0.0.1"),
        ("urls:\n  - ws://127.0.0.1:1\n  - ws://example.com:80\nduration: 5\npopulations: [{name: a, count: 1}]\n", 3, "urls[1]: refusing to load example.com"),
        ("duration: 5\npopulations: [{name: a, weight: 1, count: 2}]\n", 2, "populations[0].count: give weight or count, not both"),
        ("duration: 5\npopulations: [{name: a, count: 2, behaviour: drag, drags: 10, steps: 20}]\n", 2,
         "drags: drags × (steps + 2) is 220 messages a second, over the server's 120 per connection"),
        ("duration: 5\npopulations: [{name: a, count: 2, behaviour: tap, steps: 3}]\n", 2, "steps: only draggers drag"),
        ("duration: 5\npopulations: [{name: a, count: 2, behaviour: drag, taps: 1}]\n", 2, "draggers do not tap"),
        ("duration: 5\npopulations: [{name: a, count: 2, behaviour: fly}]\n", 2, "must be spectate, tap or drag"),
        ("duration: 5\npopulations: [{name: a, count: 2, taps: 3}]\n", 2, "spectators do not tap"),
        ("duration: 5\npopulations: [{name: a, count: 2, behaviour: tap, taps: 30}]\n", 2, "taps: must be taps per second, 0…20"),
        ("duration: 5\npopulations: [{name: a, count: 2}, {name: a, count: 1}]\n", 2, "names another population too"),
        ("populations: [{name: a, weight: 1}]\nduration: 5\n", 1, "weighted populations need stages"),
        ("duration: 5\npopulations: [{name: a, count: 2, churn: {stay: [3, 1], away: 1}}]\n", 2, "churn.stay[1]: must be seconds ≥ min (3)"),
        ("duration: 5\npopulations: [{name: a, count: 2, thresholds: {maxP99FrameAgeMs: -1}}]\n", 2, "thresholds.maxP99FrameAgeMs: must be a number ≥ 0"),
        ("duration: 5\npopulations: [{name: a, count: 2, thresholds: {maxP99ReconnectFirstFrameMs: -5}}]\n", 2,
         "thresholds.maxP99ReconnectFirstFrameMs: must be a number ≥ 0"),
        ("populations: [{name: a, weight: 1}]\nstages: [{start: 0, end: 10, clients: 5}]\nduration: 8\n", 3, "duration: ends before the last stage"),
        ("duration: 5\npopulations:\n  - name: a\n    count: 2\n  - {name: b, count: 1\n", 6, "not valid YAML or JSON"),
        ("duration: 5\nduration: 6\npopulations: [{name: a, count: 1}]\n", 1, "duplicate key duration"),
    ])
    func badScenariosNameTheLine(text: String, line: Int, words: String) {
        let error = refusal(text)
        #expect(error?.line == line, "\(error?.description ?? "accepted")")
        #expect(error?.description.contains(words) == true, "\(error?.description ?? "accepted")")
        #expect(error?.description.hasPrefix("s.yaml:") == true)
    }

    @Test func aRemoteHostIsAllowedOnlyWhenNamed() throws {
        let text = "url: ws://10.0.0.1:8080\nduration: 5\npopulations: [{name: a, count: 1}]\n"
        #expect(try ScenarioParser.parse(text, allowedRemote: ["10.0.0.1"]).urls[0].host == "10.0.0.1")
        #expect(refusal(text, allowedRemote: ["10.0.0.2"]) != nil)
    }

    @Test func theBadJSONErrorNamesItsLineToo() {
        let error = refusal("{\n  \"duration\": 5,\n  \"populations\": [{\"name\": \"a\", \"count\": 1, \"bogus\": 1}]\n}\n")
        #expect(error?.line == 3 && error?.path == "populations[0].bogus", "\(error?.description ?? "accepted")")
    }

    @Test func theExamplesRead() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/scenarios").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["churny-audience.yaml", "cube-pullers.yaml", "rain-night.yaml", "spectator-flood.json"])
        for file in files {
            let scenario = try ScenarioParser.load(path: folder.appendingPathComponent(file).path)
            #expect(scenario.clients > 0, "\(file)")
        }
        let night = try ScenarioParser.load(path: folder.appendingPathComponent("rain-night.yaml").path)
        #expect(night.stages.map(\.name) == ["ramp", "hold", "spike", "rain", "drop"])
        #expect(night.slots == [3200, 800] && night.target(at: 245) == 2500 && night.target(at: 415) == 0)
        let pullers = try ScenarioParser.load(path: folder.appendingPathComponent("cube-pullers.yaml").path)
        #expect(pullers.populations.map(\.dragsPerSecond) == [0, 2] && pullers.slots == [180, 20])
    }
}

@Suite struct ReconnectBackoffTests {
    @Test func theDelaysAreThePagesDoublingFromHalfASecondToFifteen() {
        var backoff = ReconnectBackoff()
        // random 0.5: no jitter, the nominal delays of public/lib/backoff.js.
        let nominal = (0..<8).map { _ in backoff.next(random: 0.5) }
        #expect(nominal == [0.5, 1, 2, 4, 8, 15, 15, 15])
        backoff.reset()
        #expect(backoff.next(random: 0) == 0.25)  // −50%
        #expect(backoff.next(random: 0.999999) > 1.49)  // up to +50%
    }
}

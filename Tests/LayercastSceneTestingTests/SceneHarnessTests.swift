import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastSceneTesting
import LayercastWire
import Testing

// The harness against two scenes: the shipped radar (items every 0.5 s, 414 × 736, the radar
// square at y = 161) and `CoinScene`, whose coin is at x = 20 + 100·t on y = 200 until 3 s.

@Suite("Scene harness")
struct SceneHarnessTests {
    @Test func aRadarItemIsHitAndSelectedAtItsPlace() throws {
        let harness = SceneHarness(RadarScene.self, seed: 42)
        harness.run(to: 3)
        #expect(harness.now == 3)
        let item = try #require(harness.layer(named: "item-3"))
        // An item's position is in the radar square's coordinates; the square starts at y = 161.
        let point = CGPoint(x: item.position.x, y: item.position.y + 161)
        #expect(harness.hit(at: point) === item)
        let result = harness.tap(at: point, by: Tapper(client: "c7"))
        let select = SceneEvent(name: "select", data: ["item": "item-3"], client: "c7")
        #expect(result.outcome == .answered && !result.awarded)
        #expect(result.events == [select])
        #expect(harness.takeEvents() == [select])
        #expect(harness.events.isEmpty)
    }

    @Test func theDisplayListIsTheFrameAtNow() throws {
        let harness = SceneHarness(RadarScene.self, seed: 42)
        // Frame 0: the cream root and the white radar; the pulses container draws nothing, and at
        // time 0 pulse 0 is at scale 0 and pulses 1–5 fill backwards to scale 0: zero area.
        #expect(harness.displayList.items.map(\.name) == [nil, "radar"])
        harness.run(to: 3)
        // At 3 s pulses 0–4 have begun (pulse 5 begins at 10/3 s); items 1–6 arrived at 0.5…3.0 s,
        // and item-6 is still at opacity 0, the start of its fade-in, so it is left out.
        let names = harness.displayList.items.map(\.name)
        #expect(names == [nil, "radar"] + (0...4).map { "pulse-\($0)" } + (1...5).map { "item-\($0)" })
        let third = try #require(harness.displayList.items.first { $0.name == "item-3" })
        #expect(third.width == 44 && third.height == 44 && third.image == "radar-item")
    }

    @Test func runTicksEveryFrameAndStopsAtTheTime() throws {
        let harness = SceneHarness(fps: 10) { CoinScene(seed: 0) }
        harness.run(to: 2.55)
        #expect(harness.now == 2.55)
        #expect(harness.takeEvents().map(\.name) == ["second", "second"])
        // The frame at 2.55 s: the coin's centre is at 20 + 100·2.55 = 275, its left edge at 255.
        let coin = try #require(harness.displayList.items.first { $0.name == "coin" })
        #expect(abs(coin.matrix.tx - 255) < 1e-3)
        harness.advance(by: 0.5)
        #expect(abs(harness.now - 3.05) < 1e-12)
        #expect(harness.takeEvents() == [SceneEvent(name: "second", data: ["n": 3])])
        let now = harness.now
        harness.run(to: 1)
        #expect(harness.now == now, "never backwards")
    }

    @Test func presentationIsTheValueAClientSees() throws {
        let harness = SceneHarness(CoinScene.self, seed: 0)
        harness.run(to: 1.5)
        let coin = try #require(harness.layer(named: "coin"))
        #expect(coin.position.x == 320, "the model value")
        let now = try #require(harness.presentation(of: coin)).position
        #expect(abs(now.x - 170) < 1e-9 && now.y == 200)
        let early = try #require(harness.presentation(of: coin, at: 0.25)).position
        #expect(abs(early.x - 45) < 1e-9 && early.y == 200)
    }

    @Test func aTapIsResolvedAtItsViewTimeWithinTheLastThirdOfASecond() throws {
        let harness = SceneHarness(CoinScene.self, seed: 0)
        let coin = try #require(harness.layer(named: "coin"))
        harness.run(to: 1.2)
        // Seen at 1.0 s the coin spanned x 100…140; now it spans 120…160.
        #expect(harness.hit(at: CGPoint(x: 110, y: 200), viewTime: 1.0) === coin)
        #expect(harness.hit(at: CGPoint(x: 110, y: 200)) !== coin)
        harness.run(to: 2)
        // A view time 1 s old is clamped to 2 − 0.3 = 1.7 s: the coin spans 170…210 there.
        #expect(harness.hit(at: CGPoint(x: 110, y: 200), viewTime: 1.0) !== coin)
        #expect(harness.hit(at: CGPoint(x: 190, y: 200), viewTime: 1.0) === coin)
    }

    @Test func claimsAreCommittedAndConfirmedWithARunningTotal() throws {
        let harness = SceneHarness(CoinScene.self, seed: 0)
        harness.run(to: 0.5)   // the coin is at x = 70
        let ann = Tapper(client: "c1", player: "ann")
        let first = harness.tap(at: CGPoint(x: 70, y: 200), by: ann)
        #expect(first.outcome == .claim(Claim(round: 1, item: 1, coins: 5, point: CGPoint(x: 70, y: 200), time: 0.5)))
        #expect(first.awarded && first.failure == nil)
        #expect(first.events == [SceneEvent(name: "won", data: ["item": 1, "total": 5], client: "c1", audience: .client)])
        harness.tap(at: CGPoint(x: 70, y: 200), by: ann)
        harness.tap(at: CGPoint(x: 70, y: 200), by: Tapper(client: "c2", player: "bob"))
        #expect(harness.ledger.totals == ["ann": 10, "bob": 5])
        #expect(harness.ledger.awards.map(\.claim.item) == [1, 2, 3])
        #expect(harness.ledger.awards.map(\.serverTime) == [0.5, 0.5, 0.5])
        #expect(harness.takeEvents().compactMap { $0.data.objectValue?["total"] } == [5, 10, 5])

        // A commit that fails: the claim is made, nothing is awarded or announced.
        harness.ledger.refuses = true
        let refused = harness.tap(at: CGPoint(x: 70, y: 200), by: ann)
        #expect(!refused.awarded && refused.failure != nil && refused.events.isEmpty)
        #expect(harness.ledger.totals == ["ann": 10, "bob": 5])
        // A tap beside the coin claims nothing.
        harness.ledger.refuses = false
        #expect(harness.tap(at: CGPoint(x: 300, y: 200), by: ann).outcome == .ignored)
        #expect(harness.ledger.awards.count == 3)
    }

    @Test func anOpeningBalanceIsAddedTo() {
        let harness = SceneHarness(CoinScene.self, seed: 0)
        harness.run(to: 0.5)   // the coin is at x = 70
        harness.ledger.totals["ann"] = 100
        let result = harness.tap(at: CGPoint(x: 70, y: 200), by: Tapper(client: "c1", player: "ann"))
        #expect(result.events == [SceneEvent(name: "won", data: ["item": 1, "total": 105], client: "c1", audience: .client)])
        #expect(harness.ledger.totals == ["ann": 105])
    }

    @Test func aCommandRunsInTheScenesContextAndItsEventsAreKeptAtOnce() {
        let harness = SceneHarness(fps: 10) { CoinScene(seed: 0) }
        harness.run(to: 1.25)
        _ = harness.takeEvents()
        #expect(harness.perform { $0.ring(after: 0.5) } == 1.25)
        #expect(harness.events == [SceneEvent(name: "armed")])
        harness.run(to: 1.74)
        #expect(harness.events == [SceneEvent(name: "armed")])
        harness.run(to: 1.75)
        #expect(harness.takeEvents() == [SceneEvent(name: "armed"), SceneEvent(name: "ring")])
    }

    @Test func aSceneOnAStageMadeElsewhereIsTakenOverAtItsTime() throws {
        let (stage, scene) = SceneStage.make { CoinScene(seed: 0) }
        stage.advance(to: 1.25)
        let harness = SceneHarness(stage: stage, scene: scene, fps: 10)
        #expect(harness.now == 1.25 && harness.displayList.time == 1.25)
        // The frame at 1.25 s: the coin's centre is at 20 + 125 = 145, its left edge at 125.
        let coin = try #require(harness.displayList.items.first { $0.name == "coin" })
        #expect(abs(coin.matrix.tx - 125) < 1e-3)
        // The scene's second at 1 s, announced before the takeover, then its second at 2 s.
        harness.run(to: 2.05)
        #expect(harness.takeEvents() == [SceneEvent(name: "second", data: ["n": 1]), SceneEvent(name: "second", data: ["n": 2])])
        #expect(harness.now == 2.05 && harness.displayList.time == 2.05)
    }

    @Test func dragStepsAreResolvedLikeTaps() {
        let harness = SceneHarness(CoinScene.self, seed: 0)
        harness.run(to: 1)   // the coin is at x = 120
        let began = harness.drag(.began, at: CGPoint(x: 120, y: 200), by: "c3")
        #expect(began == [SceneEvent(name: "drag", data: ["phase": "began", "hit": "coin"], client: "c3")])
        harness.drag(.ended, at: CGPoint(x: 300, y: 50), by: "c3")
        // `events` holds the timer's at 1 s, then both steps'; beside the coin only the root is hit.
        let events = harness.takeEvents()
        #expect(events.map(\.name) == ["second", "drag", "drag"])
        #expect(events.dropFirst().map { $0.data.objectValue?["hit"] } == [JSONValue.string("coin"), JSONValue.null])
    }
}

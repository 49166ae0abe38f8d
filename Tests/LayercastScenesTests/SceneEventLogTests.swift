import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastSceneTesting
import Testing

/// The least a scene that draws and takes taps writes: info (interactions and assets by
/// default), a layer tree, `init(seed:)`, `tap`, and an event log for `takeEvents`.
private final class TapCounter: AnnouncingScene {
    static let info = SceneInfo(id: "tap-counter", title: "Tap counter", size: CGSize(width: 100, height: 100))
    let layer = CALayer()
    let eventLog = SceneEventLog()
    private var taps = 0

    init(seed: UInt64) {
        layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    }

    func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome {
        taps += 1
        eventLog.announce("tapped", ["count": .number(Double(taps))], by: tapper.client)
        return .answered
    }
}

@Test func sceneInfoDefaultsToTapsAndNoImages() {
    #expect(TapCounter.info.interactions == ["tap"])
    #expect(TapCounter.info.assets == [])
}

@Test func anAnnouncingSceneHandsItsAnnouncementsToTheRoomOnce() {
    let harness = SceneHarness(TapCounter.self, seed: 0)
    let first = harness.tap(at: CGPoint(x: 50, y: 50), by: Tapper(client: "c1"))
    #expect(first.events == [SceneEvent(name: "tapped", data: ["count": 1], client: "c1")])
    let second = harness.tap(at: CGPoint(x: 50, y: 50), by: Tapper(client: "c2"))
    #expect(second.events == [SceneEvent(name: "tapped", data: ["count": 2], client: "c2")])
    #expect(harness.scene.takeEvents() == [])
}

@Test func theLogKeepsOrderAndAudience() {
    let log = SceneEventLog()
    log.announce("a")
    log.announce("b", ["x": true], by: "c3", audience: .client)
    #expect(log.take() == [
        SceneEvent(name: "a"),
        SceneEvent(name: "b", data: ["x": true], client: "c3", audience: .client),
    ])
    #expect(log.take() == [])
}

// The example of docs/testing-a-scene.md, verbatim from `import` to the end: if it stops
// compiling or passing, so does the guide. It imports the products an author's tests depend on,
// `Layercast` and `LayercastSceneTesting`, and `LayercastScenes` for the radar, and nothing else of ours.

import Layercast
import LayercastScenes   // RadarScene, one of ours
import LayercastSceneTesting
import Testing

@Test func tappingARadarItemSelectsIt() throws {
    // The radar at 30 frames a second, its random choices fixed by the seed.
    let harness = SceneHarness(RadarScene.self, seed: 42)
    harness.run(to: 3)   // an item every 0.5 s: item-1 … item-6

    // Where item-3 is in scene coordinates: its position is in the radar square's.
    let item = try #require(harness.layer(named: "item-3"))
    let point = harness.scene.layer.convert(item.position, from: item.superlayer)
    #expect(harness.hit(at: point) === item)

    // The tap takes the room's path; the scene answers with a `select` event for the tapper.
    let result = harness.tap(at: point, by: Tapper(client: "c1"))
    #expect(result.events == [SceneEvent(name: "select", data: ["item": "item-3"], client: "c1")])

    // 0.15 s later the item is half-way through its pop (scale 1 → 1.2 → 1 over 0.3 s) ...
    harness.advance(by: 0.15)
    let popped = try #require(harness.presentation(of: item))
    #expect(abs(popped.transform.m11 - 1.2) < 1e-9)
    // ... and 0.3 s after the tap a client's frame draws its selection ring, grown to 3 points.
    harness.advance(by: 0.15)
    let drawn = try #require(harness.displayList.items.first { $0.name == "item-3" })
    #expect(drawn.borderWidth == 3)
}

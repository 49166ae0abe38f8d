import CardFlip
import Foundation
import Layercast
import LayercastSceneTesting
import Testing

/// The card's middle in scene coordinates, and a point 90 points above it: on the card at rest
/// (its half side is 100), off it while it is turned 45° or more (its projected half height is
/// then at most 100·cos 45° grown by the perspective, under 83).
private let middle = CGPoint(x: 207, y: 368)
private let nearTopEdge = CGPoint(x: 207, y: 278)

@Test func tappingTheCardFlipsItFaceDownAndTellsTheRoom() throws {
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    harness.run(to: 1)
    let card = try #require(harness.layer(named: "card"))
    #expect(harness.hit(at: middle) === card)
    #expect(harness.hit(at: nearTopEdge) === card)

    let result = harness.tap(at: middle, by: Tapper(client: "c1"))
    #expect(result.outcome == .answered)
    #expect(result.events == [SceneEvent(name: "flip", data: ["face": "down"], client: "c1")])
    // The model holds the end at once, as after a UIKit animation block.
    #expect(card.backgroundColor == .systemRed)
}

@Test func halfWayThroughTheFirstSecondTheCardIsTurned45DegreesAndNarrower() throws {
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    let card = try #require(harness.layer(named: "card"))
    harness.tap(at: middle)   // at 0

    harness.run(to: 0.5)
    let turned = try #require(harness.presentation(of: card))
    #expect(abs(turned.transform.m22 - cos(Double.pi / 4)) < 1e-9)
    #expect(abs(abs(turned.transform.m23) - sin(Double.pi / 4)) < 1e-9)
    #expect(harness.hit(at: middle) === card)
    #expect(harness.hit(at: nearTopEdge) !== card)

    harness.run(to: 2.5)   // at rest, face down: the full square again
    let rested = try #require(harness.presentation(of: card))
    #expect(abs(rested.transform.m22 - -1) < 1e-9)
    #expect(harness.hit(at: nearTopEdge) === card)
}

@Test func theColourChangesHalfWayWhenTheCardIsEdgeOn() throws {
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    let card = try #require(harness.layer(named: "card"))
    harness.run(to: 2)
    harness.tap(at: middle)   // the turn runs 2 … 4

    #expect(harness.presentation(of: card, at: 2.9)?.backgroundColor == .systemGreen)
    #expect(harness.presentation(of: card, at: 3.1)?.backgroundColor == .systemRed)
    harness.run(to: 3)
    #expect(harness.hit(at: CGPoint(x: 207, y: 348)) !== card)   // edge-on: 20 points off the middle misses
}

@Test func aTapWhileTheCardTurnsIsIgnoredAndTheEndIsAnnounced() {
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    harness.tap(at: middle, by: Tapper(client: "c1"))
    _ = harness.takeEvents()

    harness.run(to: 1.5)
    let during = harness.tap(at: middle, by: Tapper(client: "c2"))
    #expect(during.outcome == .ignored)
    #expect(during.events.isEmpty)

    harness.run(to: 2.1)
    #expect(harness.takeEvents() == [SceneEvent(name: "flipped", data: ["face": "down"])])

    // Face down and at rest: the next tap turns it back face up, green again at the end.
    let back = harness.tap(at: middle, by: Tapper(client: "c2"))
    #expect(back.events == [SceneEvent(name: "flip", data: ["face": "up"], client: "c2")])
    harness.run(to: 4.2)
    #expect(harness.takeEvents() == [
        SceneEvent(name: "flip", data: ["face": "up"], client: "c2"),
        SceneEvent(name: "flipped", data: ["face": "up"]),
    ])
}

@Test func aTapBesideTheCardDoesNothing() {
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    let result = harness.tap(at: CGPoint(x: 20, y: 20))
    #expect(result.outcome == .ignored)
    #expect(result.events.isEmpty)
    harness.run(to: 3)
    #expect(harness.takeEvents().isEmpty)
}

@Test func aClientsFrameDrawsTheCardGreenThenRed() throws {
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    let before = try #require(harness.displayList.items.first { $0.name == "card" })
    #expect(before.width == 200 && before.height == 200 && before.cornerRadius == 20)
    #expect([before.background?.red, before.background?.green, before.background?.blue] == [52, 199, 89])

    harness.tap(at: middle)
    harness.run(to: 2.5)
    let after = try #require(harness.displayList.items.first { $0.name == "card" })
    #expect([after.background?.red, after.background?.green, after.background?.blue] == [255, 59, 48])
}

@Test func theCardsMarkIsTheImageThisPackageShips() throws {
    let info = CardFlipScene.info
    #expect(info.assets.map(\.id) == ["card-mark"])
    let asset = try #require(info.assets.first)
    #expect(asset.url(scene: info.id) == "/assets/card-flip/card-mark.svg")
    #expect(asset.width == 40 && asset.height == 40)
    guard case .resource(let path, let bundle) = asset.source else {
        Issue.record("the mark is not a resource: \(asset.source)")
        return
    }
    let file = try #require(bundle.resourceURL?.appendingPathComponent(path))
    #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("<svg "))

    // Drawn 20 points inside the card's top-left corner (107, 268): a tap on it flips the card.
    let harness = SceneHarness(CardFlipScene.self, seed: 1)
    let mark = try #require(harness.displayList.items.first { $0.name == "mark" })
    #expect(mark.image == "card-mark" && mark.width == 40 && mark.height == 40)
    #expect(harness.hit(at: CGPoint(x: 147, y: 308)) === harness.layer(named: "mark"))
    #expect(harness.tap(at: CGPoint(x: 147, y: 308)).outcome == .answered)
}

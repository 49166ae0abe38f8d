import Foundation
import LayercastEngine
import LayercastJSON
@testable import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The prize reveal (docs/scenes.md §6) under the harness, checked against values worked out by hand
// from its numbers and docs/engine-model.md: a round from s runs the ring's strokeEnd 0 → 1 over
// [s, s + 2] (linear), pulses the dot over 1.2 s with copy k 0.1·k s late, opens the mask over
// [s + 2, s + 2.6] (ease-in-ease-out) and sweeps the shimmer in [s + 2.6 + 2.5·j, s + 4.1 + 2.5·j].

private func reveal() -> SceneHarness<RevealScene> {
    SceneHarness(RevealScene.self, seed: 1)
}

/// The middle of the replay button (its label covers it: the tap hits `replay-label`).
private let replayPoint = CGPoint(x: 207, y: 560)

private func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

private extension SceneHarness where S == RevealScene {
    func strokeEnd(at time: CFTimeInterval? = nil) -> Double {
        Double(presentation(of: scene.ring, at: time)!.strokeEnd)
    }

    /// The mask's presented size and corner radius.
    func mask(at time: CFTimeInterval? = nil) -> (size: CGSize, radius: Double) {
        let mask = presentation(of: scene.revealMask, at: time)!
        return (mask.bounds.size, Double(mask.cornerRadius))
    }

    func locations(at time: CFTimeInterval? = nil) -> [Double] {
        (presentation(of: scene.shimmer, at: time)!.locations ?? []).map(\.doubleValue)
    }

    /// Replicator copy `k`'s dot at media time `time`: its presented opacity and x scale.
    func dotCopy(_ k: Int, at time: CFTimeInterval) -> (opacity: Double, scale: Double) {
        var found: (Double, Double)?
        scene.sparkles.forEachPresentedCopy(k, at: time) { layer, properties in
            if layer === scene.dot { found = (Double(properties.opacity), Double(properties.transform.m11)) }
        }
        return found!
    }
}

/// Copy k of the dot at `time` in a round that started at `start`: it has not begun before
/// start + 0.1·k (model opacity 0, scale 1); then at u = (time − start − 0.1·k) mod 1.2 its opacity
/// is 1 − u/1.2 and its scale 1 − 0.7·u/1.2.
private func expectedDot(_ k: Int, at time: Double, start: Double = 0) -> (opacity: Double, scale: Double) {
    let local = time - start - 0.1 * Double(k)
    guard local >= 0 else { return (0, 1) }
    let u = local.truncatingRemainder(dividingBy: 1.2) / 1.2
    return (1 - u, 1 - 0.7 * u)
}

private func roundEvent(_ name: String, _ round: Int, by client: String? = nil) -> SceneEvent {
    SceneEvent(name: name, data: ["round": .number(Double(round))], client: client)
}

@Suite("Prize reveal scene")
struct RevealSceneTests {
    @Test func infoAndCatalogue() {
        let info = RevealScene.info
        #expect(info.id == "reveal" && info.title == "Prize reveal")
        #expect(info.size == CGSize(width: 414, height: 736))
        #expect(info.interactions == ["tap"] && info.assets.isEmpty)
        #expect(SceneCatalog.all.map { $0.info.id } == ["radar", "rain", "cubes", "snow", "book", "reveal"])
        #expect(SceneCatalog.scene(id: "reveal") == RevealScene.self)
    }

    @Test func theRingFillsLinearlyOverTwoSeconds() throws {
        let harness = reveal()
        #expect(harness.strokeEnd() == 0)
        harness.run(to: 1)
        #expect(approx(harness.strokeEnd(), 0.5))
        #expect(approx(harness.strokeEnd(at: 0.5), 0.25))
        harness.run(to: 3)
        #expect(harness.strokeEnd() == 1)   // the animation is over: the model value
        // The path: a circle of radius 110 about the middle of the 240-point layer, from its top.
        let path = try #require(harness.scene.ring.path)
        #expect(harness.scene.ring.bounds.size == CGSize(width: 240, height: 240))
        #expect(harness.scene.ring.position == CGPoint(x: 207, y: 330))
        let box = path.boundingBoxOfPath
        #expect(zip([box.minX, box.minY, box.width, box.height], [10, 10, 220, 220]).allSatisfy { approx(Double($0), $1, 1e-9) })
        #expect(abs(path.currentPoint.x - 120) < 1e-9 && abs(path.currentPoint.y - 10) < 1e-9)   // ends at the top
    }

    @Test func theReplicatorDrawsTwelveDelayedDots() {
        let harness = reveal()
        let sparkles = harness.scene.sparkles
        #expect(sparkles.instanceCount == 12 && approx(sparkles.instanceDelay, 0.1))
        // A twelfth of a turn per copy: cos 30° and sin 30°.
        #expect(approx(Double(sparkles.instanceTransform.m11), 3.0.squareRoot() / 2))
        #expect(approx(Double(sparkles.instanceTransform.m12), 0.5))

        // At 0.5 s: copy 0 is 0.5 s into its pulse, copy 3 0.2 s, copy 5 just starting, copy 7 not yet.
        for k in [0, 3, 5, 7] {
            let dot = harness.dotCopy(k, at: 0.5), expected = expectedDot(k, at: 0.5)
            #expect(approx(dot.opacity, expected.opacity, 1e-6) && approx(dot.scale, expected.scale, 1e-6), "copy \(k)")
        }
        #expect(approx(expectedDot(3, at: 0.5).opacity, 5.0 / 6))   // the reference itself, by hand
        // Repeating: at 1.5 s copy 2 is 0.1 s into its second pulse (opacity 11/12).
        #expect(approx(harness.dotCopy(2, at: 1.5).opacity, 11.0 / 12, 1e-6))

        // A client's frame at 1.25 s has every copy of the dot, each at its own opacity.
        harness.run(to: 1.25)
        let dots = harness.displayList.items.filter { $0.name == "dot" }
        #expect(dots.count == 12)
        #expect(Set(dots.map(\.id)).count == 12)
        #expect(approx(dots.map(\.opacity).max()!, 1 - 0.05 / 1.2, 1e-3))
    }

    @Test func theMaskOpensAfterTheRingAndAnnouncesTheReveal() {
        let harness = reveal()
        harness.run(to: 1)
        #expect(harness.mask().size == .zero && harness.mask().radius == 0)   // filled backwards: hidden
        harness.run(to: 2.3)
        // Half-way through the ease-in-ease-out curve: half open (its Float control points make
        // the curve's middle 0.5000000193, not 0.5).
        let half = 200 * easeInEaseOut(0.5)
        #expect(approx(half, 100, 1e-5))
        #expect(approx(harness.mask().size.width, half, 1e-9) && approx(harness.mask().size.height, half, 1e-9))
        #expect(approx(harness.mask().radius, half / 2, 1e-9))
        #expect(approx(harness.mask(at: 2.15).size.width, 200 * easeInEaseOut(0.25), 1e-6))
        // The frame a client gets masks the card with the half-open circle.
        let card = harness.displayList.items.first { $0.name == "prize" }
        let maskItem = card?.group?.mask?.first
        #expect(maskItem?.width == 100 && maskItem?.cornerRadius == 50)
        #expect(harness.takeEvents().isEmpty)
        harness.run(to: 2.6)
        #expect(harness.takeEvents() == [roundEvent("revealed", 1)])
        #expect(harness.mask().size == CGSize(width: 200, height: 200) && harness.mask().radius == 100)
    }

    @Test func theShimmerSweepsAfterTheReveal() {
        let harness = reveal()
        let offCard = [-0.3, -0.15, 0]
        harness.run(to: 2)
        #expect(harness.locations() == offCard)
        harness.run(to: 3.35)   // 0.75 s into the first 1.5 s sweep
        #expect(zip(harness.locations(), [0.35, 0.5, 0.65]).allSatisfy { approx($0, $1) })
        harness.run(to: 4.6)    // between sweeps
        #expect(harness.locations() == offCard)
        harness.run(to: 5.4)    // 0.3 s into the second: 0.2 of the way
        #expect(zip(harness.locations(), [-0.04, 0.11, 0.26]).allSatisfy { approx($0, $1) })
    }

    @Test func aTapOnReplayRestartsTheRound() {
        let harness = reveal()
        harness.run(to: 5)
        #expect(harness.hit(at: replayPoint)?.name == "replay-label")
        let result = harness.tap(at: replayPoint, by: Tapper(client: "c7"))
        #expect(result.outcome == .answered)
        #expect(harness.takeEvents() == [roundEvent("revealed", 1), roundEvent("replay", 2, by: "c7")])

        // Back to the start at 5 s: an empty ring, a closed mask, the shimmer off the card, the
        // dot's first copy starting its pulse and the others not begun.
        #expect(harness.strokeEnd() == 0)
        #expect(harness.mask().size == .zero)
        #expect(harness.locations() == [-0.3, -0.15, 0])
        #expect(harness.dotCopy(0, at: 5).opacity == 1 && harness.dotCopy(4, at: 5).opacity == 0)
        harness.run(to: 6)
        #expect(approx(harness.strokeEnd(), 0.5))
        #expect(approx(harness.dotCopy(3, at: 6).opacity, expectedDot(3, at: 6, start: 5).opacity, 1e-6))
        harness.run(to: 7.3)
        #expect(approx(harness.mask().size.width, 200 * easeInEaseOut(0.5), 1e-9))
        harness.run(to: 7.6)
        #expect(harness.takeEvents() == [roundEvent("revealed", 2)])
    }

    @Test func aReplayDuringTheRevealCancelsItsAnnouncement() {
        let harness = reveal()
        harness.run(to: 2.3)
        harness.tap(at: replayPoint)
        #expect(harness.takeEvents() == [roundEvent("replay", 2, by: "c1")])
        harness.run(to: 4.89)
        #expect(harness.takeEvents().isEmpty)   // round 1's reveal was replaced, not finished
        harness.run(to: 4.9)   // 2.3 + 2 + 0.6
        #expect(harness.takeEvents() == [roundEvent("revealed", 2)])
    }

    @Test func tapsElsewhereDoNothing() {
        let harness = reveal()
        harness.run(to: 1)
        // The card (the mask does not change hit testing), the ring, the background.
        for point in [CGPoint(x: 207, y: 330), CGPoint(x: 207, y: 215), CGPoint(x: 20, y: 20), CGPoint(x: 207, y: 620)] {
            let result = harness.tap(at: point)
            #expect(result.outcome == .ignored && result.events.isEmpty, "\(point)")
        }
        #expect(harness.hit(at: CGPoint(x: 207, y: 330)) === harness.scene.shimmer)   // over the card
        #expect(harness.takeEvents().isEmpty)
        #expect(approx(harness.strokeEnd(), 0.5))   // the round goes on
        harness.run(to: 2.6)
        #expect(harness.takeEvents() == [roundEvent("revealed", 1)])
    }
}

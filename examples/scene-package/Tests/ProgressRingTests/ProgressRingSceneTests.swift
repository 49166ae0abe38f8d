import Foundation
import Layercast
import LayercastSceneTesting
import ProgressRing
import Testing

/// The ring's centre, the scene's middle; its radius is 100.
private let centre = CGPoint(x: 207, y: 368)

/// The point of the ring at UIKit angle `a` (y down: increasing angles turn clockwise on screen).
private func onRing(_ a: CGFloat) -> CGPoint {
    CGPoint(x: centre.x + 100 * cos(a), y: centre.y + 100 * sin(a))
}

private func close(_ a: CGPoint, _ b: CGPoint, _ tolerance: CGFloat) -> Bool {
    abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance
}

@Test func theRingIsTheOriginalsArcOfOneAndAQuarterTurns() throws {
    let harness = SceneHarness(ProgressRingScene.self, seed: 1)
    let track = try #require(harness.layer(named: "track") as? CAShapeLayer)
    let progress = try #require(harness.layer(named: "progress") as? CAShapeLayer)
    let path = try #require(progress.path)
    #expect(track.path == path)
    // −π/2 → 2π clockwise (UIKit): from twelve o'clock (207, 268) round to three o'clock (307, 368),
    // 2.5π·100 = 785.4 points long.
    guard case .moveToPoint(let start) = path.elements.first else { Issue.record("no start"); return }
    #expect(close(start, CGPoint(x: 207, y: 268), 1e-9))
    #expect(close(path.currentPoint, CGPoint(x: 307, y: 368), 1e-9))
    #expect(abs(PathSampler(path).totalLength / (250 * .pi) - 1) < 0.001)
    #expect(progress.strokeEnd == 0 && track.strokeEnd == 1)
    #expect(progress.lineWidth == 10 && progress.lineCap == .round && progress.fillColor == .clear)
    #expect(track.strokeColor == CGColor(gray: 2.0 / 3.0, alpha: 1))   // UIKit's lightGray
}

@Test func aTapFillsHalfTheRingInOneSecondAndStaysFull() throws {
    let harness = SceneHarness(ProgressRingScene.self, seed: 1)
    let progress = try #require(harness.layer(named: "progress") as? CAShapeLayer)
    let result = harness.tap(at: CGPoint(x: 20, y: 20), by: Tapper(client: "c1"))   // at 0, off the ring
    #expect(result.outcome == .answered)
    #expect(result.events == [SceneEvent(name: "fill", client: "c1")])

    // Linear over 2 s: half at 1 s. Half of 1¼ turns from −π/2 ends at 3π/4, lower left on screen.
    let half = try #require(harness.presentation(of: progress, at: 1))
    #expect(abs(half.strokeEnd - 0.5) < 1e-9)
    let sampler = PathSampler(try #require(half.path))
    let end = sampler.point(atDistance: half.strokeEnd * sampler.totalLength).point
    #expect(close(end, onRing(3 * .pi / 4), 0.01))   // (136.29, 438.71)

    // fillMode forwards and not removed: full after the end, while the model value stays 0.
    harness.run(to: 3)
    #expect(harness.presentation(of: progress)?.strokeEnd == 1)
    #expect(progress.strokeEnd == 0)
}

@Test func aSecondTapRestartsTheFillFromEmpty() throws {
    let harness = SceneHarness(ProgressRingScene.self, seed: 1)
    let progress = try #require(harness.layer(named: "progress") as? CAShapeLayer)
    harness.tap(at: centre)
    harness.run(to: 1.5)
    harness.tap(at: centre, by: Tapper(client: "c2"))   // no fromValue: from the model value, 0
    #expect(abs(harness.presentation(of: progress, at: 2)!.strokeEnd - 0.25) < 1e-9)
    #expect(abs(harness.presentation(of: progress, at: 3)!.strokeEnd - 0.75) < 1e-9)
}

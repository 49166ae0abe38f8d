import Foundation
import LayercastEngine
import LayercastJSON
@testable import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The radar scene (docs/scenes.md §5) run on a manual clock, checked against numbers worked out from
// the seed and docs/engine-model.md.

/// The radar under the harness (a room's clock, input path and frames), seed 42 unless told.
private func radar(seed: UInt64 = 42) -> SceneHarness<RadarScene> {
    SceneHarness(RadarScene.self, seed: seed)
}

private extension SceneHarness where S == RadarScene {
    /// A tap at `point` now by `client` through the room's path; the events announced since the
    /// last `takeEvents()`, the tap's among them.
    func tapEvents(at point: CGPoint, by client: String) -> [SceneEvent] {
        tap(at: point, by: Tapper(client: client))
        return takeEvents()
    }

    /// Every item layer in the tree, live or leaving, back to front.
    var itemLayers: [CALayer] {
        (scene.radar.sublayers ?? []).filter { $0.name?.hasPrefix("item-") == true }
    }

    /// An item's centre in scene coordinates: the radar square starts at y = (736 − 414)/2 = 161.
    func centre(of item: CALayer) -> CGPoint {
        CGPoint(x: item.position.x, y: item.position.y + 161)
    }
}

private func names(_ layers: [CALayer]) -> [String] { layers.map { $0.name ?? "?" } }

private func selectEvent(_ item: String, by client: String) -> SceneEvent {
    SceneEvent(name: "select", data: ["item": .string(item)], client: client)
}

private func defaultCurve(_ x: Double) -> Double { bezier(0.25, 0.1, 0.25, 1, at: x) }

/// Pulse i at media time t (docs/engine-model.md §2, §4): its group begins at b = i·4/6; before
/// that the backwards fill shows cycle time 0, after it the cycle time is c = (t − b) mod 4. The
/// group's default curve makes f = default(c/4) and the children see fraction f: scale 1.5·f,
/// opacity linear through [1, 0.7, 0] at keyTimes [0, 0.5, 1].
private func expectedPulse(_ i: Int, at t: Double) -> (scale: Double, opacity: Double) {
    let begin = Double(i) * 4 / 6
    let c = t < begin ? 0 : (t - begin).truncatingRemainder(dividingBy: 4)
    let f = defaultCurve(c / 4)
    let opacity = f <= 0.5 ? 1 - 0.3 * (f / 0.5) : 0.7 - 0.7 * ((f - 0.5) / 0.5)
    return (1.5 * f, opacity)
}

/// Whether two 44 × 44 items at these centres overlap in more than an edge.
private func overlap(_ a: CGPoint, _ b: CGPoint) -> Bool {
    abs(a.x - b.x) < 44 && abs(a.y - b.y) < 44
}

/// Counts the 64-bit words drawn from a seeded generator.
private struct CountingGenerator: RandomNumberGenerator {
    var base = SeededRandom(seed: 42)
    var draws = 0

    mutating func next() -> UInt64 {
        draws += 1
        return base.next()
    }
}

@Suite("Radar scene")
struct RadarSceneTests {
    // MARK: Catalogue and tree

    @Test func infoAndCatalogue() {
        let info = RadarScene.info
        #expect(info.id == "radar")
        #expect(info.title == "Pulsing radar")
        #expect(info.size == CGSize(width: 414, height: 736))
        #expect(info.interactions == ["tap"])
        #expect(AssetRow.rows(info) == [AssetRow(id: "radar-item", url: "/assets/radar/radar-item.svg", width: 44, height: 44)])
        #expect(AssetRow.notShipped(info) == [])
        #expect(SceneCatalog.scene(id: "radar") == RadarScene.self)
    }

    @Test func layerTree() throws {
        let h = radar()
        let root = h.scene.layer
        #expect(root.frame == CGRect(x: 0, y: 0, width: 414, height: 736))
        #expect(root.backgroundColor == CGColor(red: 253 / 255, green: 246 / 255, blue: 236 / 255, alpha: 1))
        // The radar: side = screen width 414, centred vertically: y = (736 − 414)/2 = 161.
        let radar = try #require(h.layer(named: "radar"))
        #expect(radar.superlayer === root)
        #expect(radar.frame == CGRect(x: 0, y: 161, width: 414, height: 414))
        #expect(radar.backgroundColor == .white)
        let pulses = try #require(h.layer(named: "pulses"))
        #expect(names(pulses.sublayers ?? []) == (0..<6).map { "pulse-\($0)" })
        for pulse in pulses.sublayers ?? [] {
            #expect(pulse.frame == CGRect(x: 0, y: 0, width: 414, height: 414))
            #expect(pulse.borderColor == CGColor(gray: 0.5, alpha: 1))
            #expect(pulse.borderWidth == 1)
            #expect(pulse.cornerRadius == 207)
            #expect(pulse.transform == CATransform3DIdentity && pulse.opacity == 1)
        }
        // No items before the first timer tick.
        #expect(h.itemLayers.isEmpty && h.scene.items.isEmpty)
    }

    @Test func pulseAnimationsAreTheSeeds() throws {
        let h = radar()
        // beginTime = CACurrentMediaTime() (0 here) + i·4/6.
        let begins: [CFTimeInterval] = [0, 2.0 / 3, 4.0 / 3, 2, 8.0 / 3, 10.0 / 3]
        for (i, begin) in begins.enumerated() {
            let pulse = try #require(h.layer(named: "pulse-\(i)"))
            #expect(pulse.animationKeys() == ["pulsing"])
            let group = try #require(pulse.animation(forKey: "pulsing") as? CAAnimationGroup)
            #expect(abs(group.beginTime - begin) < 1e-12, "pulse \(i)")
            #expect(group.duration == 4)
            #expect(group.repeatCount == .infinity)
            #expect(group.fillMode == .backwards)
            #expect(group.timingFunction == CAMediaTimingFunction(name: .default))
            let children = try #require(group.animations)
            #expect(children.count == 2)
            let scale = try #require(children[0] as? CABasicAnimation)
            #expect(scale.keyPath == "transform.scale")
            #expect(scale.fromValue as? Double == 0 && scale.toValue as? Double == 1.5)
            #expect(!scale.autoreverses)
            let opacity = try #require(children[1] as? CAKeyframeAnimation)
            #expect(opacity.keyPath == "opacity")
            #expect(opacity.values as? [Double] == [1, 0.7, 0])
            #expect(opacity.keyTimes == [0, 0.5, 1])
        }
    }

    @Test func pulseValuesFollowTheDefaultCurve() throws {
        let h = radar()
        // A few values written out: pulse 0 at 1 s is at f = default(0.25) ≈ 0.4085, so scale
        // 1.5·0.4085 ≈ 0.6128 and opacity 1 − 0.6·0.4085 ≈ 0.7549; at 3 s f = default(0.75) > 0.5.
        #expect(abs(expectedPulse(0, at: 1).scale - 0.6128) < 1e-4)
        #expect(abs(expectedPulse(0, at: 1).opacity - 0.7549) < 1e-4)
        #expect(expectedPulse(0, at: 3).opacity < 0.7)
        // t = 2.5: pulses 4 (begins 8/3) and 5 (10/3) have not begun: backwards fill, scale 0,
        // opacity 1. t = 4: pulse 0 starts its second ring at scale 0. Late times repeat every 4 s.
        for t: CFTimeInterval in [1, 2.5, 3.5, 4, 7.25, 1000.9] {
            for i in 0..<6 {
                let pulse = try #require(h.layer(named: "pulse-\(i)"))
                let p = try #require(pulse.presentation(at: t))
                let e = expectedPulse(i, at: t)
                #expect(abs(Double(p.transform.m11) - e.scale) < 1e-6, "pulse \(i) at \(t)")
                #expect(abs(Double(p.transform.m22) - e.scale) < 1e-6, "pulse \(i) at \(t)")
                #expect(abs(Double(p.opacity) - e.opacity) < 1e-6, "pulse \(i) at \(t)")
            }
        }
        let before = try #require(h.layer(named: "pulse-4")?.presentation(at: 2.5))
        #expect(before.transform.m11 == 0 && before.opacity == 1)
    }

    @Test func pulsesNeverStop() throws {
        let h = radar()
        h.run(to: 120)
        for i in 0..<6 {
            #expect(try #require(h.layer(named: "pulse-\(i)")).animationKeys() == ["pulsing"])
        }
    }

    // MARK: Items

    @Test func anItemArrivesEveryHalfSecond() {
        let h = radar()
        h.run(to: 0.49)
        #expect(h.scene.items.isEmpty)
        h.run(to: 0.5)
        #expect(names(h.scene.items) == ["item-1"])
        // Ticks at 0.5, 1.0, 1.5, 2.0 by 2.2 s: four items, above the pulses in arrival order.
        h.run(to: 2.2)
        #expect(names(h.scene.items) == ["item-1", "item-2", "item-3", "item-4"])
        #expect(names(h.scene.radar.sublayers ?? []) == ["pulses", "item-1", "item-2", "item-3", "item-4"])
        for item in h.scene.items {
            #expect(item.bounds.size == CGSize(width: 44, height: 44))
            #expect(item.contents == CGImage(named: "radar-item", width: 44, height: 44))
            #expect(item.cornerRadius == 22 && item.borderWidth == 0)
        }
    }

    @Test func itemsFadeInOverOneSecondWithUIViewsCurve() throws {
        let h = radar()
        h.run(to: 0.5)
        let item = try #require(h.scene.items.first)
        #expect(item.opacity == 1)
        let fade = try #require(item.animation(forKey: "opacity") as? CABasicAnimation)
        #expect(fade.duration == 1)
        #expect(fade.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
        // Opacity 0 → 1 from 0.5 s to 1.5 s with easeInEaseOut (UIView's default curve). Its control
        // points are symmetric about (0.5, 0.5), so half-way (1.0 s) shows exactly 0.5; the engine's
        // own implicit default curve would show default(0.5) ≈ 0.80 there.
        let expected: [(CFTimeInterval, Double)] = [
            (0.5, 0), (0.75, easeInEaseOut(0.25)), (1.0, 0.5), (1.25, easeInEaseOut(0.75)),
        ]
        #expect(abs(easeInEaseOut(0.25) - 0.1291) < 1e-3)
        for (t, opacity) in expected {
            #expect(abs(Double(try #require(item.presentation(at: t)).opacity) - opacity) < 1e-5, "at \(t)")
        }
        h.run(to: 1.5)
        #expect(item.animationKeys() == nil)
        #expect(try #require(item.presentation(at: 1.5)).opacity == 1)
    }

    @Test func theEleventhItemRetiresTheOldest() throws {
        let h = radar()
        h.run(to: 5)
        #expect(names(h.scene.items) == (1...10).map { "item-\($0)" })
        #expect(h.scene.leaving.isEmpty)
        let oldest = try #require(h.scene.items.first)

        // 5.5 s: item-11 arrives, item-1 stops being live and fades 1 → 0 over 5.5…6.5.
        h.run(to: 5.5)
        #expect(names(h.scene.items) == (2...11).map { "item-\($0)" })
        #expect(h.scene.leaving.map { $0 === oldest } == [true])
        #expect(oldest.superlayer === h.scene.radar)
        #expect(oldest.opacity == 0)
        #expect(try #require(oldest.presentation(at: 5.5)).opacity == 1)
        #expect(abs(Double(try #require(oldest.presentation(at: 6)).opacity) - 0.5) < 1e-5)
        #expect(abs(Double(try #require(oldest.presentation(at: 6.25)).opacity) - (1 - easeInEaseOut(0.75))) < 1e-5)
        #expect(h.takeEvents().isEmpty, "an unselected item leaves silently")

        // Still on screen just before the fade ends; the completion block removes it at 6.5 s.
        h.run(to: 6.4999)
        #expect(oldest.superlayer === h.scene.radar)
        h.run(to: 6.5)
        #expect(oldest.superlayer == nil)
        // By then item-2 (retired at 6.0) and item-3 (at 6.5) are leaving; item-13 has arrived.
        #expect(names(h.scene.leaving) == ["item-2", "item-3"])
        #expect(names(h.scene.items) == (4...13).map { "item-\($0)" })
        #expect(names(h.itemLayers) == (2...13).map { "item-\($0)" })
    }

    @Test func aLongRunKeepsEveryRule() {
        // Every 0.1 s for a minute: at most 10 live items (exactly 10 from 5 s on), at most two
        // more leaving, every item wholly inside the circle (centre within 207 − 22√2 of (207, 207))
        // and no two items on screen overlapping.
        let h = radar()
        for k in 1...600 {
            let t = Double(k) / 10
            h.run(to: t)
            let live = h.scene.items.count
            #expect(live <= 10)
            if t >= 5 { #expect(live == 10, "at \(t)") }
            let layers = h.itemLayers
            #expect(layers.count <= 12)
            let centres = layers.map(\.position)
            for c in centres {
                #expect(hypot(c.x - 207, c.y - 207) + 22 * 2.0.squareRoot() <= 207 + 1e-9, "at \(t)")
            }
            for i in centres.indices {
                for j in centres.indices where j > i {
                    #expect(!overlap(centres[i], centres[j]), "\(names([layers[i], layers[j]])) at \(t)")
                }
            }
        }
        // 120 ticks by 60 s and no placement gave up: the numbers run on without a gap.
        #expect(names(h.scene.items) == (111...120).map { "item-\($0)" })
    }

    @Test func theSeedFixesTheLayout() {
        let a = radar(seed: 42), b = radar(seed: 42), c = radar(seed: 7)
        for h in [a, b, c] { h.run(to: 3) }
        #expect(a.scene.items.map(\.position) == b.scene.items.map(\.position))
        #expect(a.scene.items.map(\.position) != c.scene.items.map(\.position))
    }

    // MARK: Placement

    @Test func randomPointsAreUniformOverTheDisc() {
        // r = R·√u makes P(r < kR) = k² (area); the seed's uniform radius would give P(r < R/2) = 0.5.
        // The angle is uniform in [0, 2π) radians, so each quadrant gets a quarter. With 20 000
        // points one standard deviation of a fraction near 0.25 is √(0.25·0.75/20000) ≈ 0.003.
        var rng = SeededRandom(seed: 42)
        let n = 20_000
        let points = (0..<n).map { _ in RadarScene.randomPointInDisc(center: .zero, radius: 100, using: &rng) }
        let radii = points.map { hypot($0.x, $0.y) }
        #expect(radii.allSatisfy { $0 <= 100 })
        func fraction(_ included: (Int) -> Bool) -> Double {
            Double((0..<n).filter(included).count) / Double(n)
        }
        #expect(abs(fraction { radii[$0] < 50 } - 0.25) < 0.05)
        #expect(abs(fraction { radii[$0] < 25 } - 0.0625) < 0.02)
        #expect(abs(fraction { radii[$0] < 75 } - 0.5625) < 0.02)
        let quadrants = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        for (sx, sy) in quadrants {
            #expect(abs(fraction { points[$0].x * sx > 0 && points[$0].y * sy > 0 } - 0.25) < 0.02)
        }
    }

    @Test func placementGivesUpOnAFullDisc() {
        // One rect over the whole radar: every try collides, and after the 200 tries (two draws
        // each, u and θ, one word apiece) placement returns nil instead of looping.
        var rng = CountingGenerator()
        let full = [CGRect(x: 0, y: 0, width: 414, height: 414)]
        let centre = CGPoint(x: 207, y: 207)
        #expect(RadarScene.placeItem(size: CGSize(width: 44, height: 44), inCircle: centre, radius: 207,
                                     avoiding: full, using: &rng) == nil)
        #expect(rng.draws == 2 * RadarScene.placementAttempts)
        #expect(RadarScene.placementAttempts == 200)
        // A circle smaller than the item's half diagonal (22√2 ≈ 31.1) has no room at all.
        rng.draws = 0
        #expect(RadarScene.placeItem(size: CGSize(width: 44, height: 44), inCircle: centre, radius: 31,
                                     avoiding: [], using: &rng) == nil)
        #expect(rng.draws == 0)
    }

    @Test func placementFindsTheOneGap() throws {
        // Everything is taken except a 60 × 60 window around the centre; a 44 × 44 item fits there
        // only with its centre within (60 − 44)/2 = 8 of (207, 207).
        var rng = SeededRandom(seed: 42)
        let taken = [
            CGRect(x: -1000, y: -1000, width: 1177, height: 3000),   // x < 177
            CGRect(x: 237, y: -1000, width: 1000, height: 3000),     // x > 237
            CGRect(x: -1000, y: -1000, width: 3000, height: 1177),   // y < 177
            CGRect(x: -1000, y: 237, width: 3000, height: 1000),     // y > 237
        ]
        let c = try #require(RadarScene.placeItem(size: CGSize(width: 44, height: 44), inCircle: CGPoint(x: 207, y: 207),
                                                  radius: 207, avoiding: taken, attempts: 10_000, using: &rng))
        #expect(abs(c.x - 207) <= 8 && abs(c.y - 207) <= 8)
    }

    // MARK: Taps

    @Test func tappingAnItemSelectsItForEveryone() throws {
        let h = radar()
        h.run(to: 3)
        let third = try #require(h.layer(named: "item-3"))
        let fifth = try #require(h.layer(named: "item-5"))
        #expect(h.hit(at: h.centre(of: third)) === third)
        #expect(h.tapEvents(at: h.centre(of: third), by: "c1") == [selectEvent("item-3", by: "c1")])
        #expect(h.scene.selection === third)
        #expect(h.scene.takeEvents().isEmpty, "takeEvents clears")
        // The highlight: a 3 pt red ring grown over 0.2 s on the default curve (half-way:
        // 3·default(0.5)), and a pop 1 → 1.2 → 1 over 0.3 s, linear between keyframes (1.2 at 0.15 s).
        #expect(third.borderWidth == 3)
        #expect(third.borderColor == CGColor(red: 230 / 255, green: 46 / 255, blue: 36 / 255, alpha: 1))
        #expect(third.cornerRadius == 22)
        let ring = try #require(third.presentation(at: 3.1))
        #expect(abs(Double(ring.borderWidth) - 3 * defaultCurve(0.5)) < 1e-6)
        let pop = try #require(third.presentation(at: 3.15))
        #expect(abs(pop.transform.m11 - 1.2) < 1e-9 && abs(pop.transform.m22 - 1.2) < 1e-9)
        let settled = try #require(third.presentation(at: 3.35))
        #expect(settled.transform == CATransform3DIdentity && settled.borderWidth == 3)

        // Another player picks item-5: item-3's ring shrinks 3 → 0 (half-way 3 − 3·default(0.5)).
        h.run(to: 3.5)
        #expect(h.tapEvents(at: h.centre(of: fifth), by: "c2") == [selectEvent("item-5", by: "c2")])
        #expect(h.scene.selection === fifth)
        #expect(third.borderWidth == 0 && fifth.borderWidth == 3)
        #expect(abs(Double(try #require(third.presentation(at: 3.6)).borderWidth) - (3 - 3 * defaultCurve(0.5))) < 1e-6)
        // Tapping the selection again pops it and announces it again.
        h.run(to: 4)
        #expect(h.tapEvents(at: h.centre(of: fifth), by: "c3") == [selectEvent("item-5", by: "c3")])
        #expect(abs(try #require(fifth.presentation(at: 4.15)).transform.m11 - 1.2) < 1e-9)
    }

    @Test func tapsOnNothingDoNothing() throws {
        let h = radar()
        h.run(to: 3)
        #expect(h.tapEvents(at: h.centre(of: try #require(h.layer(named: "item-2"))), by: "c1").count == 1)
        let selected = h.scene.selection

        // The grid point nearest the radar's centre that no item covers. At 3 s pulses 0–4 have
        // begun (pulse 5 begins at 10/3 and is at scale 0); the topmost pulse whose scaled square
        // (half side 207·scale about the centre) contains the point is what the tap hits.
        let offsets = (-20...20).flatMap { dx in (-20...20).map { dy in CGPoint(x: dx * 10, y: dy * 10) } }
            .sorted { hypot($0.x, $0.y) < hypot($1.x, $1.y) }
        let free = try #require(offsets.first { o in
            h.itemLayers.allSatisfy { !$0.frame.insetBy(dx: -1, dy: -1).contains(CGPoint(x: 207 + o.x, y: 207 + o.y)) }
        })
        let covering = (0..<6).filter { i in
            let half = 207 * expectedPulse(i, at: 3).scale
            return abs(Double(free.x)) < half && abs(Double(free.y)) < half
        }
        let topmost = try #require(covering.last)
        // With seed 42 the centre itself is free, inside every begun pulse: pulse-4 is on top.
        #expect(free == .zero && topmost == 4)
        let point = CGPoint(x: 207 + free.x, y: 161 + 207 + free.y)
        #expect(h.hit(at: point) === h.layer(named: "pulse-\(topmost)"))
        #expect(h.tapEvents(at: point, by: "c1").isEmpty)

        // Above the radar only the scene root is hit; a tap that hit nothing at all.
        #expect(h.hit(at: CGPoint(x: 10, y: 10)) === h.scene.layer)
        #expect(h.tapEvents(at: CGPoint(x: 10, y: 10), by: "c1").isEmpty)
        h.stage.run { h.scene.tap(nil, at: CGPoint(x: -5, y: -5), time: 3, by: Tapper(client: "c1")) }
        #expect(h.scene.takeEvents().isEmpty)
        #expect(h.scene.selection === selected)
    }

    @Test func theSelectionClearsWhenTheSelectedItemLeaves() throws {
        let h = radar()
        h.run(to: 3)
        let first = try #require(h.layer(named: "item-1"))
        #expect(h.tapEvents(at: h.centre(of: first), by: "c1") == [selectEvent("item-1", by: "c1")])
        // 5.5 s: item-11 arrives and item-1 leaves; the scene clears the selection on its own.
        h.run(to: 5.5)
        #expect(h.takeEvents() == [SceneEvent(name: "select", data: ["item": .null], client: nil)])
        #expect(h.scene.selection == nil)
        #expect(first.borderWidth == 0)
        // While it fades it is still hit, but a leaving item cannot be selected.
        h.run(to: 5.75)
        #expect(h.hit(at: h.centre(of: first)) === first)
        #expect(h.tapEvents(at: h.centre(of: first), by: "c2").isEmpty)
        #expect(h.scene.selection == nil)
        h.run(to: 6.5)
        #expect(first.superlayer == nil && !h.scene.leaving.contains { $0 === first })
        #expect(h.takeEvents().isEmpty)
    }
}

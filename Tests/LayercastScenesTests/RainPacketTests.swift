import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The packets' draws, falls and spins (RainTestSupport.swift: the harness).
@Suite("Rain: packets")
struct RainPacketTests {
    @Test func packetsAreTheSeeds() throws {
        let h = RainHarness()
        h.start(at: 0)
        h.run(to: 5)
        let first = try #require(h.livePackets.first)
        #expect(first.bounds == CGRect(x: 0, y: 0, width: 44, height: 62.5))
        #expect(first.anchorPoint == CGPoint(x: 0, y: 0))
        #expect(first.position == CGPoint(x: 0, y: -62.5))
        #expect(first.transform == CATransform3DIdentity)
        #expect(first.contents == CGImage(named: "rp_normal", width: 44, height: 62.5))

        // Every packet, looked at every 0.25 s until the end, with its fall and spin as first seen
        // (the fall is removed when it ends).
        var seen: [Int: CALayer] = [:], falls: [Int: CAKeyframeAnimation] = [:], spins: [Int: CAKeyframeAnimation] = [:]
        while h.now < 25 {
            for layer in h.livePackets where seen[h.index(of: layer)] == nil {
                let i = h.index(of: layer)
                seen[i] = layer
                falls[i] = layer.animation(forKey: "fall") as? CAKeyframeAnimation
                spins[i] = layer.animation(forKey: "spin") as? CAKeyframeAnimation
            }
            h.advance(by: 0.25)
        }
        #expect(seen.count == 80 && falls.count == 80 && spins.count == 80)
        let draws = expectedDraws(seed: settings.seed, count: 80)
        for i in 0..<80 {
            let d = draws[i]
            let fall = try #require(falls[i]), spin = try #require(spins[i])
            // Fall: position keyframes (rand % 414, 0) → (rand % 414, 736), linear, once, removed.
            #expect(fall.keyPath == "position")
            let points = try #require(fall.values as? [CGPoint])
            #expect(points == [CGPoint(x: d.x0, y: 0), CGPoint(x: d.x1, y: 736)], "packet \(i)")
            #expect(points.allSatisfy { $0.x == $0.x.rounded() && (0...413).contains($0.x) })
            #expect(fall.duration == d.fall)
            #expect(fall.duration >= 3.5 && fall.duration <= 5.49)
            #expect(abs(fall.duration * 100 - (fall.duration * 100).rounded()) < 1e-9, "steps of 0.01")
            #expect(fall.repeatCount == 1)
            #expect(fall.timingFunction == CAMediaTimingFunction(name: .linear))
            #expect(fall.fillMode == .removed && fall.isRemovedOnCompletion)
            #expect(fall.delegate != nil)
            // Spin: transform keyframes between two whole-degree rotations about (0, 0, −1).
            #expect(spin.keyPath == "transform")
            let transforms = try #require(spin.values as? [CATransform3D])
            #expect(transforms == [rotation(degrees: d.angle0), rotation(degrees: d.angle1)], "packet \(i)")
            #expect((0..<360).contains(d.angle0) && (0..<360).contains(d.angle1))
            #expect(spin.duration == d.spin && spin.duration >= 3.5 && spin.duration <= 5.49)
            #expect(spin.timingFunction == CAMediaTimingFunction(name: .easeInEaseOut))
            #expect(spin.fillMode == .forwards && !spin.isRemovedOnCompletion)
        }
        // The draws are really spread: x over the width, durations over their range.
        #expect(Set(draws.map(\.x0)).count > 60 && Set(draws.map(\.fall)).count > 50)
    }

    @Test func packetsFallLinearlyAndSpinWithEaseInEaseOut() throws {
        let h = RainHarness()
        h.start(at: 0)
        h.run(to: 7)
        let draws = expectedDraws(seed: settings.seed, count: 9)
        var checkedFill = false
        for i in 0..<9 {
            let packet = try #require(h.scene.packetLayers[i])
            let d = draws[i]
            let begin = 5 + 0.25 * Double(i)
            // Linear: at the fall's midpoint the position is the average of its two keyframes;
            // at a quarter, a quarter of the way.
            let mid = try #require(packet.presentation(at: begin + d.fall / 2)).position
            #expect(abs(mid.x - (d.x0 + d.x1) / 2) < 1e-9 && abs(mid.y - 368) < 1e-9, "packet \(i)")
            let quarter = try #require(packet.presentation(at: begin + d.fall / 4)).position
            #expect(abs(quarter.x - (d.x0 + (d.x1 - d.x0) / 4)) < 1e-9 && abs(quarter.y - 184) < 1e-9)
            // Spin: the angle (about −z, the short way) follows easeInEaseOut of the spin's fraction.
            var delta = Double(d.angle1 - d.angle0)
            if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
            guard abs(abs(delta) - 180) > 1 else { continue }
            for fraction in [0.25, 0.5, 0.8] {
                let t = try #require(packet.presentation(at: begin + d.spin * fraction)).transform
                let expected = -(Double(d.angle0) + easeInEaseOut(fraction) * delta) * .pi / 180
                #expect(abs(Double(t.m11) - cos(expected)) < 1e-6 && abs(Double(t.m12) - sin(expected)) < 1e-6,
                        "packet \(i) at \(fraction)")
            }
            // Fill forwards: after the spin, before the fall ends, it holds the last rotation.
            if d.spin < d.fall - 0.05 {
                let held = try #require(packet.presentation(at: begin + (d.spin + d.fall) / 2)).transform
                let r1 = rotation(degrees: d.angle1)
                #expect(abs(held.m11 - r1.m11) < 1e-9 && abs(held.m12 - r1.m12) < 1e-9)
                checkedFill = true
            }
        }
        #expect(checkedFill)
    }

    @Test func aPacketLeavesWhenItsFallEnds() throws {
        let h = RainHarness()
        h.start(at: 0)
        h.run(to: 5)
        let packet = try #require(h.scene.packetLayers[0])
        let fall = expectedDraws(seed: settings.seed, count: 1)[0].fall
        h.run(to: 5 + fall - 0.001)
        #expect(packet.superlayer === h.scene.packets)
        #expect(try #require(packet.presentation(at: 5 + fall - 0.001)).position.y > 735)
        h.run(to: 5 + fall)
        #expect(packet.superlayer == nil && h.scene.packetLayers[0] == nil)
    }
}

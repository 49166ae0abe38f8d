import Foundation
@testable import LayercastEngine
import Testing
@testable import LayercastWire

// ParticleVisibility (protocol.md, "Particles": the culling rule) solved in closed form against
// the rule itself sampled densely: the spans hold exactly the sampled ages at which the particle
// is drawn inside the scene rect, for random particles and maps.
@Suite struct ParticleVisibilityTests {
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    static func particle(_ random: inout Seeded) -> EmitterParticleBirth {
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        return EmitterParticleBirth(
            id: random.next(), cellName: nil, cellPath: [0], contents: CGImage(named: "p", width: 20, height: 12),
            birthTime: r(0...5), lifetime: r(0.5...8), origin: SIMD3(r(-200...600), r(-200...900), 0),
            velocity: SIMD3(r(-150...150), r(-150...150), 0), acceleration: SIMD3(r(-40...40), r(-60...60), 0),
            scale: r(0...2), scaleSpeed: r(-0.6...0.3), spin: r(-3...3),
            color: SIMD4(1, 1, 1, r(-0.2...1.4)), colorSpeed: SIMD4(0, 0, 0, r(-0.8...0.3)))
    }

    @Test func spansAreWhereTheRuleDrawsTheParticle() {
        var random = Seeded(state: 37)
        var drawnSamples = 0
        let maps = [CATransform3DIdentity, CATransform3DMakeScale(0.5, 0.5, 1),
                    CATransform3DConcat(CATransform3DMakeRotation(0.7, 0, 0, 1), CATransform3DMakeTranslation(120, -40, 0))]
        for m in maps {
            let visibility = ParticleVisibility(toScene: m, scene: CGSize(width: 414, height: 736))
            for _ in 0..<200 {
                let birth = Self.particle(&random)
                let spans = visibility.spans(of: birth)
                for (low, high) in zip(spans, spans.dropFirst()).map({ ($0.upperBound, $1.lowerBound) }) {
                    #expect(low < high, "spans overlap or touch")
                }
                // Samples away from the spans' ends (1e-6 s) agree with the rule.
                for k in 0..<400 {
                    let age = birth.lifetime * (Double(k) + 0.5) / 400
                    let t = birth.birthTime + age
                    if spans.contains(where: { abs($0.lowerBound - t) < 1e-6 || abs($0.upperBound - t) < 1e-6 }) { continue }
                    let inSpan = spans.contains { $0.contains(t) }
                    let drawn = visibility.isDrawn(birth, atAge: age)
                    #expect(inSpan == drawn, "age \(age) of \(birth.lifetime): span \(inSpan), rule \(drawn)")
                    if drawn { drawnSamples += 1 }
                }
            }
        }
        #expect(drawnSamples > 20_000)
    }

    @Test func aProjectiveMapCullsByScaleAndAlphaOnly() {
        var m = CATransform3DIdentity
        m.m14 = 0.001  // w depends on x: projective in the plane
        let visibility = ParticleVisibility(toScene: m, scene: CGSize(width: 10, height: 10))
        let far = EmitterParticleBirth(
            id: 1, cellName: nil, cellPath: [0], contents: CGImage(named: "p", width: 4, height: 4), birthTime: 0, lifetime: 4,
            origin: SIMD3(5000, 5000, 0), velocity: .zero, acceleration: .zero, scale: 1, scaleSpeed: -0.5, spin: 0,
            color: SIMD4(1, 1, 1, 1), colorSpeed: .zero)
        // Off the rect but not culled; drawn until its scale quantises to 0 at age 2 − 1e-4.
        let spans = visibility.spans(of: far)
        #expect(spans.count == 1 && spans[0].lowerBound == 0 && abs(spans[0].upperBound - (2 - 1e-4)) < 1e-9)
    }
}

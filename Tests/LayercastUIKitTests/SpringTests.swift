import Foundation
import LayercastEngine
import LayercastUIKit
import Testing

/// The spring variant adds `CASpringAnimation`s whose spring settles in the given duration
/// (docs/engine-model.md §12.2); the curve checked against the closed form written out here.
@Suite struct SpringTests {
    /// x(t) of the under-damped spring with x(0) = 0, x'(0) = v0, ω₀ and ζ, solved by hand.
    private func fraction(_ t: Double, omega: Double, zeta: Double, velocity: Double) -> Double {
        let a = zeta * omega, wd = omega * (1 - zeta * zeta).squareRoot()
        return 1 + exp(-a * t) * (-cos(wd * t) + (velocity - a) / wd * sin(wd * t))
    }

    @Test(arguments: [(0.5, 0.0), (0.3, 2.0), (0.8, -1.0)])
    func theSpringSettlesInTheDurationAndFollowsTheDampedCurve(zeta: Double, velocity: Double) throws {
        let stage = SceneClock()
        let view = stage.view(CGRect(x: -10, y: -10, width: 20, height: 20))   // center (0, 0)
        stage.run {
            UIView.animate(withDuration: 1.2, delay: 0, usingSpringWithDamping: CGFloat(zeta), initialSpringVelocity: CGFloat(velocity),
                           options: .curveEaseIn, animations: { view.center = CGPoint(x: 100, y: 0) })
        }
        let spring = try #require(view.layer.animation(forKey: "position") as? CASpringAnimation)
        #expect(spring.mass == 1)
        let omega = Double(spring.stiffness).squareRoot()
        #expect(abs(Double(spring.damping) - 2 * zeta * omega) < 1e-9)
        #expect(Double(spring.initialVelocity) == velocity)
        #expect(abs(spring.settlingDuration - 1.2) <= 0.002)
        #expect(spring.duration == 1.2)
        #expect(spring.timingFunction == nil)   // a spring ignores the curve options, as in UIKit
        #expect(spring.isAdditive && spring.fromValue as? CGPoint == CGPoint(x: -100, y: 0))
        for t in [0.05, 0.2, 0.45, 0.8] {
            let x = try #require(view.layer.presentation(at: t)).position.x
            #expect(abs(Double(x) - (100 - 100 * (1 - fraction(t, omega: omega, zeta: zeta, velocity: velocity)))) < 1e-6)
        }
        #expect(abs(fraction(1.2, omega: omega, zeta: zeta, velocity: velocity) - 1) < 0.001)   // settled by the end
    }

    /// docs/engine-model.md §12.2's worked figures: ζ 0.5, 1 s, no velocity.
    @Test func theDocumentedSpring() throws {
        let spring = try #require(UISpringMapping.spring(duration: 1, dampingRatio: 0.5, initialVelocity: 0))
        #expect(abs(spring.stiffness - 183.06) < 0.05)
        #expect(abs(spring.damping - 13.53) < 0.005)
        #expect(abs(spring.settlingDuration - 1) <= 0.001)
        // The first overshoot: at π/ω_d, 1 + e^(−πζ/√(1−ζ²)) = 1.163.
        let peak = Double.pi / (spring.stiffness.squareRoot() * (0.75).squareRoot())
        #expect(abs(peak - 0.2681) < 0.0005)
        #expect(abs(spring.value(at: peak) - (1 + exp(-Double.pi * 0.5 / (0.75).squareRoot()))) < 1e-9)
    }

    @Test func overdampedRatiosAreCriticalAndBadOnesAreRefused() throws {
        let critical = try #require(UISpringMapping.spring(duration: 1, dampingRatio: 3, initialVelocity: 0))
        #expect(abs(critical.damping - 2 * critical.stiffness.squareRoot()) < 1e-9)
        #expect(UISpringMapping.spring(duration: 1, dampingRatio: 0, initialVelocity: 0) == nil)
        #expect(UISpringMapping.spring(duration: -1, dampingRatio: 0.5, initialVelocity: 0) == nil)
        #expect(UISpringMapping.spring(duration: 1, dampingRatio: .nan, initialVelocity: 0) == nil)
    }
}

import Foundation
import LayercastEngine

/// How UIKit's duration-and-damping-ratio springs become a `CASpringAnimation`'s physical
/// parameters (docs/engine-model.md §12.2): mass 1, damping `2·ζ·√k`, and the stiffness k for
/// which the spring settles (`settlingDuration`) in the given duration, as Apple documents the
/// duration as "the total duration of the animations".
public enum UISpringMapping {
    /// The spring for `duration` seconds, damping ratio `dampingRatio` (clamped to at most 1: UIKit
    /// has no overdamped springs) and `initialVelocity` in whole distances per second; nil when
    /// the duration is not a positive finite number or the ratio is not > 0.
    public static func spring(duration: CFTimeInterval, dampingRatio: CGFloat, initialVelocity: CGFloat) -> SpringSolver? {
        guard duration.isFinite, duration > 0, dampingRatio.isFinite, dampingRatio > 0, initialVelocity.isFinite else { return nil }
        let zeta = min(dampingRatio, 1)
        func solver(_ omega: Double) -> SpringSolver {
            SpringSolver(mass: 1, stiffness: CGFloat(omega * omega), damping: CGFloat(2 * Double(zeta) * omega), initialVelocity: initialVelocity)
        }
        // The envelope e^(−ζω₀t) reaches 0.001 near t = 6.9/(ζω₀): bracket ω₀ around that and bisect
        // (settling time falls as ω₀ grows) on a log scale.
        let estimate = 6.9 / (Double(zeta) * duration)
        var low = log(estimate / 50), high = log(estimate * 50)
        for _ in 0..<48 {
            let middle = (low + high) / 2
            if Double(solver(exp(middle)).settlingDuration) > duration { low = middle } else { high = middle }
        }
        return solver(exp(high))
    }
}

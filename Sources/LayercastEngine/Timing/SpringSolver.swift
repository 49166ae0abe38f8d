import Foundation

/// The closed-form motion of `CASpringAnimation`'s damped spring, as a fraction of the way from the
/// start (0) to the target (1): m·x'' + c·x' + k·(x − 1) = 0 with x(0) = 0 and x'(0) = `initialVelocity`.
public struct SpringSolver: Sendable, Equatable {
    /// The mass m of the object on the spring; must be > 0 (Apple's default 1).
    public var mass: CGFloat
    /// The spring constant k; must be > 0 (Apple's default 100).
    public var stiffness: CGFloat
    /// The damping coefficient c; must be >= 0 (Apple's default 10).
    public var damping: CGFloat
    /// The starting velocity in whole distances per second; positive moves toward the target (Apple's default 0).
    public var initialVelocity: CGFloat

    /// Creates a solver; parameters should pass `validate(mass:stiffness:damping:)`, otherwise
    /// `value(at:)` and `settlingDuration` are NaN.
    public init(mass: CGFloat = 1, stiffness: CGFloat = 100, damping: CGFloat = 10, initialVelocity: CGFloat = 0) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
    }

    /// A message describing why the parameters are unusable (mass or stiffness <= 0, damping < 0,
    /// or any of them non-finite), or nil when they are valid.
    public static func validate(mass: CGFloat, stiffness: CGFloat, damping: CGFloat) -> String? {
        if !mass.isFinite || !stiffness.isFinite || !damping.isFinite {
            return "spring parameters must be finite (mass \(mass), stiffness \(stiffness), damping \(damping))"
        }
        if mass <= 0 { return "spring mass must be greater than 0 (got \(mass))" }
        if stiffness <= 0 { return "spring stiffness must be greater than 0 (got \(stiffness))" }
        if damping < 0 { return "spring damping must not be negative (got \(damping))" }
        return nil
    }

    /// The fraction of the way to the target at `t` seconds (may exceed 1 while overshooting);
    /// 0 for t <= 0.
    public func value(at t: CGFloat) -> CGFloat {
        guard t > 0 else { return 0 }
        return CGFloat(1 + motion.displacementAndVelocity(at: Double(t)).displacement)
    }

    /// The estimated time, in seconds, for the spring to come to rest.
    ///
    /// Apple does not publish its estimator; this one returns the smallest t on a 1 ms grid from which,
    /// sampled every 1 ms for the following max(1 s, one damped period), |x − 1| < 0.001 and
    /// |x'| < 0.001·ω0 (ω0 = √(k/m): the speed of a 0.001-amplitude oscillation). Searches up to
    /// 1,000 s and returns 1,000 if the spring is still moving; NaN for invalid parameters.
    public var settlingDuration: CGFloat {
        guard Self.validate(mass: mass, stiffness: stiffness, damping: damping) == nil,
              initialVelocity.isFinite
        else { return .nan }
        let motion = self.motion
        let positionTolerance = 0.001
        let velocityTolerance = 0.001 * motion.naturalFrequency
        let step = 0.001
        let lastStep = 1_000_000  // 1,000 s
        // Checking one full damped period means every later peak, which is smaller, was bounded too.
        let windowSteps = Int((max(1, motion.dampedPeriod) / step).rounded(.up))
        var quietSteps = 0
        for index in 0...lastStep {
            let state = motion.displacementAndVelocity(at: Double(index) * step)
            if abs(state.displacement) < positionTolerance && abs(state.velocity) < velocityTolerance {
                quietSteps += 1
                if quietSteps > windowSteps { return CGFloat(Double(index - windowSteps) * step) }
            } else {
                quietSteps = 0
            }
        }
        return CGFloat(Double(lastStep) * step)
    }

    private var motion: Motion {
        Motion(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping),
               initialVelocity: Double(initialVelocity))
    }
}

/// The solved oscillator u = x − 1, with u(0) = −1 and u'(0) = v0, in one of its three regimes.
private struct Motion {
    enum Regime {
        /// u = e^(−a·t)·(A·cos ωd·t + B·sin ωd·t).
        case underDamped(decay: Double, frequency: Double, a: Double, b: Double)
        /// u = e^(−ω0·t)·(A + B·t).
        case criticallyDamped(rate: Double, a: Double, b: Double)
        /// u = C1·e^(r1·t) + C2·e^(r2·t).
        case overDamped(r1: Double, r2: Double, c1: Double, c2: Double)
    }

    let naturalFrequency: Double
    let regime: Regime

    init(mass: Double, stiffness: Double, damping: Double, initialVelocity v0: Double) {
        let omega0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        naturalFrequency = omega0
        if abs(zeta - 1) <= 1e-9 {
            regime = .criticallyDamped(rate: omega0, a: -1, b: v0 - omega0)
        } else if zeta < 1 {
            let decay = zeta * omega0
            let frequency = omega0 * (1 - zeta * zeta).squareRoot()
            regime = .underDamped(decay: decay, frequency: frequency, a: -1, b: (v0 - decay) / frequency)
        } else {
            // r2 is the fast root; r1 = ω0²/r2 avoids cancellation in −ω0(ζ − √(ζ² − 1)).
            let r2 = -omega0 * (zeta + (zeta * zeta - 1).squareRoot())
            let r1 = omega0 * omega0 / r2
            let c2 = (v0 + r1) / (r2 - r1)
            regime = .overDamped(r1: r1, r2: r2, c1: -1 - c2, c2: c2)
        }
    }

    /// The period of the damped oscillation, or 0 when the spring does not oscillate.
    var dampedPeriod: Double {
        if case let .underDamped(_, frequency, _, _) = regime, frequency > 0 { return 2 * Double.pi / frequency }
        return 0
    }

    /// u(t) and u'(t) = x'(t).
    func displacementAndVelocity(at t: Double) -> (displacement: Double, velocity: Double) {
        switch regime {
        case let .underDamped(decay, frequency, a, b):
            let envelope = exp(-decay * t)
            if envelope == 0 { return (0, 0) }
            let cosine = cos(frequency * t), sine = sin(frequency * t)
            return (envelope * (a * cosine + b * sine),
                    envelope * ((frequency * b - decay * a) * cosine - (decay * b + frequency * a) * sine))
        case let .criticallyDamped(rate, a, b):
            let envelope = exp(-rate * t)
            if envelope == 0 { return (0, 0) }
            return (envelope * (a + b * t), envelope * (b - rate * (a + b * t)))
        case let .overDamped(r1, r2, c1, c2):
            let e1 = exp(r1 * t), e2 = exp(r2 * t)
            return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
        }
    }
}

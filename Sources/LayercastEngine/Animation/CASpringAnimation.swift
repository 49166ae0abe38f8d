import Foundation

/// A basic animation driven by a damped spring instead of a timing function
/// (docs/engine-model.md §3.4).
open class CASpringAnimation: CABasicAnimation {
    /// The mass on the spring, > 0; 1 by default.
    public var mass: CGFloat = 1
    /// The spring's stiffness coefficient, > 0; 100 by default.
    public var stiffness: CGFloat = 100
    /// The damping coefficient, ≥ 0 (0 never settles); 10 by default.
    public var damping: CGFloat = 10
    /// The starting speed in units of the from-to distance per second; 0 by default.
    public var initialVelocity: CGFloat = 0

    /// A spring with mass 1, stiffness 100, damping 10 and no initial velocity.
    public override init() { super.init() }

    required public init(copying other: CAAnimation) {
        super.init(copying: other)
        if let o = other as? CASpringAnimation {
            mass = o.mass
            stiffness = o.stiffness
            damping = o.damping
            initialVelocity = o.initialVelocity
        }
    }

    var solver: SpringSolver {
        SpringSolver(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    /// The estimated time for the spring to come to rest with the current parameters.
    public var settlingDuration: CFTimeInterval { CFTimeInterval(solver.settlingDuration) }

    public override func validationError() -> String? {
        if !mass.isFinite || mass <= 0 { return "mass: must be a finite number > 0" }
        if !stiffness.isFinite || stiffness <= 0 { return "stiffness: must be a finite number > 0" }
        if !damping.isFinite || damping < 0 { return "damping: must be a finite number ≥ 0" }
        if !initialVelocity.isFinite { return "initialVelocity: must be finite" }
        return super.validationError()
    }

    override func progress(at sample: TimingSample, timing: ResolvedTiming) -> CGFloat {
        solver.value(at: CGFloat(sample.simpleTime))
    }
}

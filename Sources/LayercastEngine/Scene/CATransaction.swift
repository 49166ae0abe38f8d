import Foundation

/// Groups layer changes; controls their implicit animations. Transactions belong to the current
/// thread's scene context and nest (docs/engine-model.md §8).
public enum CATransaction {
    struct State {
        var disableActions = false
        var animationDuration: CFTimeInterval = CAAnimation.defaultDuration
        var timingFunction: CAMediaTimingFunction?
        var completion: TransactionCompletion?
    }

    /// Opens a transaction nested in the current one, inheriting its settings but not its completion block.
    public static func begin() {
        let context = SceneContext.current
        var state = context.transactions.last ?? State()
        state.completion = nil
        context.transactions.append(state)
    }

    /// Closes the innermost transaction; its completion block runs once its animations have stopped.
    public static func commit() {
        let context = SceneContext.current
        guard let state = context.transactions.popLast() else { return }
        state.completion?.seal(in: context)
    }

    /// Commits every open transaction, as `CATransaction.flush()`.
    public static func flush() {
        while !SceneContext.current.transactions.isEmpty { commit() }
    }

    /// Whether property changes skip their implicit animations now; false by default.
    public static func disableActions() -> Bool { SceneContext.current.transactions.last?.disableActions ?? false }
    /// Turns implicit animations off (or on) for the innermost transaction; outside one it does nothing (§8).
    public static func setDisableActions(_ flag: Bool) { update { $0.disableActions = flag } }

    /// The duration implicit animations (and animations added with duration 0) get; 0.25 s by default.
    public static func animationDuration() -> CFTimeInterval {
        SceneContext.current.transactions.last?.animationDuration ?? CAAnimation.defaultDuration
    }
    /// Sets the innermost transaction's `animationDuration()`; outside a transaction it does nothing (§8).
    public static func setAnimationDuration(_ duration: CFTimeInterval) { update { $0.animationDuration = duration } }

    /// The timing function implicit animations get; nil means Core Animation's `default` curve.
    public static func animationTimingFunction() -> CAMediaTimingFunction? { SceneContext.current.transactions.last?.timingFunction }
    /// Sets the innermost transaction's timing function; outside a transaction it does nothing (§8).
    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) { update { $0.timingFunction = function } }

    /// Runs `block` once every animation added inside this transaction after this call has stopped.
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        update { $0.completion = block.map(TransactionCompletion.init) }
    }

    private static func update(_ change: (inout State) -> Void) {
        let context = SceneContext.current
        guard !context.transactions.isEmpty else { return }
        change(&context.transactions[context.transactions.count - 1])
    }

    /// Registers an animation being added with every open transaction's completion.
    static func track(_ animation: CAAnimation, in context: SceneContext) {
        for state in context.transactions {
            if let completion = state.completion {
                completion.pending += 1
                animation.completionGroups.append(completion)
            }
        }
    }
}

/// A transaction's completion block with the count of its animations still running.
final class TransactionCompletion {
    let block: () -> Void
    var pending = 0
    var sealed = false

    init(_ block: @escaping () -> Void) { self.block = block }

    /// Called at commit: from now on, reaching zero pending animations runs the block.
    func seal(in context: SceneContext) {
        sealed = true
        if pending == 0 { context.enqueue(.completion(self)) }
    }

    /// Called when one of its animations stops.
    func animationStopped(in context: SceneContext) {
        pending -= 1
        if sealed, pending == 0 { context.enqueue(.completion(self)) }
    }
}

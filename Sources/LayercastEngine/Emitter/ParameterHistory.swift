import Foundation

/// The values an emitter object had over media time, as (time of change, value) in time order,
/// so a particle is born with the values in effect at its birth (docs/engine-model.md §9.1). Every
/// change is kept until its emitter layer forgets what no live particle can need any more.
struct ParameterHistory<Value: Equatable & Sendable>: Sendable {
    private(set) var changes: [(time: CFTimeInterval, value: Value)]

    init(_ value: Value, at time: CFTimeInterval) {
        changes = [(time, value)]
    }

    /// Records that the value is `value` from `time` on, forgetting changes at or after `time`.
    mutating func record(_ value: Value, at time: CFTimeInterval) {
        changes.removeAll { $0.time >= time }
        if changes.last?.value == value { return }
        changes.append((time, value))
    }

    /// Forgets the changes made before `time` except the one in effect then, which from now on also
    /// stands for all time before it.
    mutating func forget(before time: CFTimeInterval) {
        guard let kept = changes.lastIndex(where: { $0.time <= time }), kept > 0 else { return }
        changes.removeFirst(kept)
    }
}

import Foundation

/// The values an emitter object had over media time, as (time of change, value) in time order,
/// so a particle is born with the values in effect at its birth (docs/engine-model.md §9.1).
struct ParameterHistory<Value: Equatable & Sendable>: Sendable {
    /// The most changes kept; when more are recorded the oldest is dropped and the oldest kept
    /// value then also stands for the time before it.
    static var capacity: Int { 64 }

    private(set) var changes: [(time: CFTimeInterval, value: Value)]

    init(_ value: Value, at time: CFTimeInterval) {
        changes = [(time, value)]
    }

    /// Records that the value is `value` from `time` on, forgetting changes at or after `time`.
    mutating func record(_ value: Value, at time: CFTimeInterval) {
        changes.removeAll { $0.time >= time }
        if changes.last?.value == value { return }
        changes.append((time, value))
        if changes.count > Self.capacity { changes.removeFirst() }
    }
}

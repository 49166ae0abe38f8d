/// A value kept on the heap and copied on write: a large value that few owners have costs every
/// owner one pointer, and copies of an owner share it until one of them changes it. The frame
/// path copies `LayerProperties` per layer per frame, so the values of the shape, gradient and
/// replicator classes live in boxes.
struct CopyOnWriteBox<Value: Equatable & Sendable>: Equatable, @unchecked Sendable {  // mutated only when uniquely referenced
    private final class Storage {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage

    init(_ value: Value) { storage = Storage(value) }

    var value: Value {
        get { storage.value }
        set {
            if isKnownUniquelyReferenced(&storage) {
                storage.value = newValue
            } else {
                storage = Storage(newValue)
            }
        }
    }

    static func == (a: Self, b: Self) -> Bool { a.storage === b.storage || a.storage.value == b.storage.value }
}

extension Optional {
    /// Reads the optional boxed value.
    func unboxed<Value>() -> Value? where Wrapped == CopyOnWriteBox<Value> { self?.value }

    /// Stores `value` into the box, in place when the box is not shared; nil removes it.
    mutating func rebox<Value>(_ value: Value?) where Wrapped == CopyOnWriteBox<Value> {
        guard let value else { return self = nil }
        if self == nil { self = CopyOnWriteBox(value) } else { self!.value = value }
    }
}

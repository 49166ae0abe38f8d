/// A client's allowance of bytes to read under its population's `readBytesPerSecond` cap: a
/// token bucket that fills at `bytesPerSecond` up to `capacity` (`burstSeconds` of the rate) and
/// starts full.
///
/// A read takes what it got even when that is more than is left, so the balance may go below 0;
/// reading may go on only while the balance is above 0. The debt is paid back before the next
/// read, so over any span the bytes read are at most `capacity` plus the rate times the span
/// plus the last read.
public struct ReadBudget: Sendable, Equatable {
    /// How many seconds of the rate the bucket holds when full.
    public static let burstSeconds = 0.125

    public let bytesPerSecond: Double
    public let capacity: Double
    /// Bytes that may still be read; below 0 after a read larger than what was left.
    public private(set) var balance: Double
    /// Monotonic seconds of the last refill.
    public private(set) var refilledAt: Double

    /// A full bucket at monotonic `now`; `bytesPerSecond` > 0 and finite.
    public init(bytesPerSecond: Double, at now: Double) {
        precondition(bytesPerSecond > 0 && bytesPerSecond.isFinite, "a read cap is a rate > 0")
        self.bytesPerSecond = bytesPerSecond
        capacity = bytesPerSecond * Self.burstSeconds
        balance = capacity
        refilledAt = now
    }

    /// Whether the client may read now.
    public var allowsReading: Bool { balance > 0 }

    /// Adds what accrued from the last refill to `now` (a `now` before it adds nothing), up to `capacity`.
    public mutating func refill(at now: Double) {
        guard now > refilledAt else { return }
        balance = min(capacity, balance + (now - refilledAt) * bytesPerSecond)
        refilledAt = now
    }

    /// Takes `count` bytes that were read.
    public mutating func spend(_ count: Int) {
        balance -= Double(count)
    }
}

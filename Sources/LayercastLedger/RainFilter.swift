import Foundation

/// Which rains `Ledger.rainIDs(_:)` lists: each condition that is set must hold.
public struct RainFilter: Equatable, Sendable {
    /// Only this room's rains.
    public var room: String?
    /// Only rains created at or after this time.
    public var createdFrom: Date?
    /// Only rains created before this time.
    public var createdBefore: Date?

    public init(room: String? = nil, createdFrom: Date? = nil, createdBefore: Date? = nil) {
        self.room = room
        self.createdFrom = createdFrom
        self.createdBefore = createdBefore
    }

    /// The bounds as unix milliseconds, open ends as the extremes (for one SQL statement).
    var millisecondBounds: (from: Int64, before: Int64) {
        (createdFrom?.unixMilliseconds ?? .min, createdBefore?.unixMilliseconds ?? .max)
    }
}

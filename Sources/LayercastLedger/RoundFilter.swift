import Foundation

/// Which rounds `Ledger.roundIDs(_:)` lists: each condition that is set must hold.
public struct RoundFilter: Equatable, Sendable {
    /// Only this room's rounds.
    public var room: String?
    /// Only rounds created at or after this time.
    public var createdFrom: Date?
    /// Only rounds created before this time.
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

import Foundation

/// Where a rain is recorded before it starts and when it ends (the ledger in production). Called
/// on the room's thread, outside any scene context.
public protocol RainRecords: AnyObject {
    /// Records a rain about to start (status running) with its prize plan; returns its id.
    func begin(_ rain: RainStart) throws -> Int64
    /// Records that rain `id` finished, or was interrupted (`interrupted`).
    func end(_ id: Int64, interrupted: Bool) throws
}

/// A rain as it is recorded when it starts.
public struct RainStart: Sendable {
    public var room: String
    /// Its settings, salt and per-player limits settled.
    public var settings: RainSettings
    public var commitment: RainCommitment
    public var plan: PrizePlan
    /// The screen it falls on.
    public var size: CGSize
    /// The players its fair share was counted over.
    public var players: Int
    /// The room's media time when it was made.
    public var mediaStart: Double
}

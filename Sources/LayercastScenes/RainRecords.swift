import Foundation

/// Where a rain is recorded before it starts and when it ends (the ledger in production). Called
/// on the room's thread, outside any scene context.
public protocol RainRecords: AnyObject {
    /// Records a rain about to start (status running) with its prize plan; returns its id.
    func begin(_ rain: RainStart) throws -> Int64
    /// Records that rain `id` finished, or was interrupted (`interrupted`).
    func end(_ id: Int64, interrupted: Bool) throws
    /// The rains of room `room` still recorded as running, oldest first, with what a node that
    /// takes the room over needs to go on with them; one that cannot be read back (its salt is
    /// not hex) has nil settings. Each is claimed for the caller first: whoever recorded it before
    /// can no longer record its awards or its end, and the awards read are all it has.
    func running(in room: String) throws -> [RecordedRain]
}

/// A running rain as recorded: enough to rebuild it on another node by replaying its awards.
public struct RecordedRain: Sendable {
    public var id: Int64
    /// Nil when the record cannot be read back into settings.
    public var settings: RainSettings?
    /// The screen it falls on.
    public var size: CGSize
    /// The media time it was made at, on its room's clock.
    public var mediaStart: Double
    /// Its accepted claims in commit order, and what each won.
    public var awards: [(tap: RainReplay.Tap, outcome: RainReplay.Outcome)]

    public init(id: Int64, settings: RainSettings?, size: CGSize, mediaStart: Double,
                awards: [(tap: RainReplay.Tap, outcome: RainReplay.Outcome)]) {
        self.id = id
        self.settings = settings
        self.size = size
        self.mediaStart = mediaStart
        self.awards = awards
    }
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

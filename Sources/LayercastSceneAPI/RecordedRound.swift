/// A round as recorded, with its awards: what its scene rebuilds it from when a node takes its
/// room over, and replays it from for an audit.
public struct RecordedRound: Equatable, Sendable {
    /// The round's id in the records (its claims' `round`).
    public var id: Int64
    /// The id of the scene that played it.
    public var scene: String
    /// The room it ran in.
    public var room: String
    /// The seed its scene was started with.
    public var seed: UInt64
    /// The secret salt as lowercase hex (empty: none).
    public var salt: String
    /// The commitment published at its start (hex; empty: none).
    public var commitment: String
    /// The scene's settings of the round, the JSON text it recorded (`RoundStart.settings`).
    public var settings: String
    /// The media time it was made at, on its room's clock.
    public var mediaStart: Double
    /// Item index → coins, for the paying items.
    public var prizes: [Int: Int]
    /// Its accepted claims in commit order.
    public var awards: [RecordedAward]

    /// A round as the records keep it, with its awards in commit order.
    public init(id: Int64, scene: String, room: String, seed: UInt64, salt: String, commitment: String, settings: String,
                mediaStart: Double, prizes: [Int: Int], awards: [RecordedAward]) {
        self.id = id
        self.scene = scene
        self.room = room
        self.seed = seed
        self.salt = salt
        self.commitment = commitment
        self.settings = settings
        self.mediaStart = mediaStart
        self.prizes = prizes
        self.awards = awards
    }
}

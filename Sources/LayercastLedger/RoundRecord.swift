import Foundation

/// A stored round with its prize plan and every award, as `Ledger.round(id:)` reads it back.
public struct RoundRecord: Equatable, Sendable {
    public var id: Int64
    /// The id of the scene that played it.
    public var scene: String
    public var room: String
    public var seed: UInt64
    /// The secret salt as lowercase hex (empty for rounds recorded before commitments).
    public var salt: String
    /// The commitment published at the start (hex; empty for rounds recorded before commitments).
    public var commitment: String
    /// The scene's settings of the round, the JSON text it wrote (`NewRound.settings`).
    public var settings: String
    public var mediaStart: Double
    public var status: RoundStatus
    public var createdAt: Date
    /// When it was ended; nil while `running`.
    public var endedAt: Date?
    /// Item index → coins, for the paying items.
    public var prizes: [Int: Int]
    /// In commit order (by id).
    public var awards: [AwardRow]

    public init(
        id: Int64, scene: String, room: String, seed: UInt64, salt: String = "", commitment: String = "", settings: String,
        mediaStart: Double, status: RoundStatus, createdAt: Date, endedAt: Date?, prizes: [Int: Int], awards: [AwardRow]
    ) {
        self.id = id
        self.scene = scene
        self.room = room
        self.seed = seed
        self.salt = salt
        self.commitment = commitment
        self.settings = settings
        self.mediaStart = mediaStart
        self.status = status
        self.createdAt = createdAt
        self.endedAt = endedAt
        self.prizes = prizes
        self.awards = awards
    }
}

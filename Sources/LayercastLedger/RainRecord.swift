import Foundation

/// A stored rain with its prize plan and every award, as `Ledger.rain(id:)` reads it back.
public struct RainRecord: Equatable, Sendable {
    public var id: Int64
    public var room: String
    public var seed: UInt64
    /// The secret salt as lowercase hex (empty for rains recorded before commitments).
    public var salt: String
    /// The commitment published at the start (hex; empty for rains recorded before commitments).
    public var commitment: String
    public var settings: RainSettingsRow
    public var mediaStart: Double
    public var status: RainStatus
    public var createdAt: Date
    /// When it was ended; nil while `running`.
    public var endedAt: Date?
    /// Packet index → coins, for the paying packets.
    public var prizes: [Int: Int]
    /// In commit order (by id).
    public var awards: [AwardRow]

    public init(
        id: Int64, room: String, seed: UInt64, salt: String = "", commitment: String = "", settings: RainSettingsRow,
        mediaStart: Double, status: RainStatus, createdAt: Date, endedAt: Date?, prizes: [Int: Int], awards: [AwardRow]
    ) {
        self.id = id
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

import Foundation

/// A round of a scene about to start (a rain, say): what `Ledger.beginRound` stores before its
/// first item can be claimed.
public struct NewRound: Sendable {
    /// The id of the scene that plays it (`rain`), which reads its settings back.
    public var scene: String
    public var room: String
    /// The layout seed; stored as its Int64 bit pattern, so every UInt64 round-trips.
    public var seed: UInt64
    /// The secret salt that, with the seed, decides the prize plan, as lowercase hex (empty: none).
    public var salt: String
    /// The published commitment to seed, salt and settings (hex SHA-256; empty: none).
    public var commitment: String
    /// The scene's own settings of the round, as the scene wrote them (JSON text); the ledger
    /// keeps the text as it is and does not read it.
    public var settings: String
    /// The round's media time at its start, in seconds.
    public var mediaStart: Double
    /// The prize plan: item index → coins, for the paying items only.
    public var prizes: [Int: Int]
    /// Stored to the millisecond.
    public var createdAt: Date

    public init(scene: String, room: String, seed: UInt64, salt: String = "", commitment: String = "", settings: String,
                mediaStart: Double, prizes: [Int: Int], createdAt: Date) {
        self.scene = scene
        self.room = room
        self.seed = seed
        self.salt = salt
        self.commitment = commitment
        self.settings = settings
        self.mediaStart = mediaStart
        self.prizes = prizes
        self.createdAt = createdAt
    }

    /// Throws `invalid` for a NaN media start, which no ledger stores.
    func refuseNaN() throws(LedgerError) {
        try LedgerError.refuseNaN([("mediaStart", mediaStart)])
    }
}

import Foundation

/// A rain about to start: what `Ledger.beginRain` stores before the first packet falls.
public struct NewRain: Sendable {
    public var room: String
    /// The layout seed; stored as its Int64 bit pattern, so every UInt64 round-trips.
    public var seed: UInt64
    /// The secret salt that, with the seed, decides the prize plan, as lowercase hex (empty: none).
    public var salt: String
    /// The published commitment to seed, salt and settings (hex SHA-256; empty: none).
    public var commitment: String
    public var settings: RainSettingsRow
    /// The rain's media time at its start, in seconds.
    public var mediaStart: Double
    /// The prize plan: packet index → coins, for the paying packets only.
    public var prizes: [Int: Int]
    /// Stored to the millisecond.
    public var createdAt: Date

    public init(room: String, seed: UInt64, salt: String = "", commitment: String = "", settings: RainSettingsRow,
                mediaStart: Double, prizes: [Int: Int], createdAt: Date) {
        self.room = room
        self.seed = seed
        self.salt = salt
        self.commitment = commitment
        self.settings = settings
        self.mediaStart = mediaStart
        self.prizes = prizes
        self.createdAt = createdAt
    }

    /// Throws `invalid` for a NaN setting or media start, which no ledger stores.
    func refuseNaN() throws(LedgerError) {
        try LedgerError.refuseNaN([
            ("duration", settings.duration), ("width", settings.width), ("height", settings.height),
            ("mediaStart", mediaStart), ("minVisible", settings.minVisible), ("tapRate", settings.tapRate),
        ])
    }
}

/// A round as it is recorded when it starts: what its scene needs to replay it later.
public struct RoundStart: Sendable {
    /// The id of the scene that plays it (`SceneInfo.id`).
    public var scene: String
    /// The room it runs in.
    public var room: String
    /// The seed of its layout.
    public var seed: UInt64
    /// The secret salt that, with the seed, decides the prize plan, as lowercase hex (empty: none).
    public var salt: String
    /// The published commitment to seed, salt and settings (hex; empty: none).
    public var commitment: String
    /// The scene's own settings of the round, JSON text the scene reads back.
    public var settings: String
    /// The room's media time when it was made.
    public var mediaStart: Double
    /// The prize plan: item index → coins, for the paying items only.
    public var prizes: [Int: Int]

    /// A round of scene `scene` in `room` to record before anyone can claim in it.
    public init(scene: String, room: String, seed: UInt64, salt: String, commitment: String, settings: String,
                mediaStart: Double, prizes: [Int: Int]) {
        self.scene = scene
        self.room = room
        self.seed = seed
        self.salt = salt
        self.commitment = commitment
        self.settings = settings
        self.mediaStart = mediaStart
        self.prizes = prizes
    }
}

/// What `layercast serve` was told about the scenes (its rain and book flags); the defaults are
/// the embedded defaults.
public struct SceneOptions: Sendable {
    /// The rain scene's screen and results time.
    public var rainScene = RainScene.Configuration()
    /// What a rain is when a request or the schedule leaves it open (the seed and salt are
    /// always drawn; the per-player limits come from the two below).
    public var rainDefaults = RainSettings()
    /// Packets one player may claim in a rain a request leaves open; nil: twice an equal share of
    /// the packets among the players in the room when the rain is made; 0: no limit.
    public var rainMaxAwardsPerPlayer: Int?
    /// Coins one player may win in such a rain; nil: twice an equal share of the pool; 0: no limit.
    public var rainMaxCoinsPerPlayer: Int?
    /// Seconds a rain room with clients waits, idle, before it starts a rain on its own; 0 never.
    public var rainEverySeconds: Double = 15
    /// The book scene's options: perspective on unless `--book-flat`.
    public var bookScene = BookScene.Configuration()

    public init() {}
}

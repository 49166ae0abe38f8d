import LayercastSceneAPI

/// What the hub is told by `layercast serve`; the defaults are the embedded defaults.
public struct HubConfiguration: Sendable {
    /// This node's id (`/healthz`; in a cluster, its name in Redis).
    public var node = "layercast"
    /// Frames per second of every room, 1…120.
    public var fps = 30
    /// Most clients at once, over all rooms.
    public var maxClients = 1000
    /// Most rooms a join may open (every room costs a frame each tick); admin commands may open more.
    public var maxRooms = 100
    /// Seconds an empty room lives before it is removed.
    public var roomIdleSeconds: Double = 30
    /// Seconds a client may go without taking a frame before it is dropped.
    public var stallTimeoutSeconds: Double = 10
    /// The most emitter particles one room's frame evaluates (docs/protocol.md, "Particles").
    public var maxParticles = 2_000
    /// What one client address may do.
    public var addressLimits = AddressLimitRules()
    /// Bearer token of admin commands; nil disables them.
    public var adminToken: String?
    /// The scenes rooms may run.
    public var scenes: SceneRegistry
    /// Each scene's options by scene id; a scene missing here runs with its defaults.
    public var sceneOptions: [String: SceneOptionValues] = [:]
    /// For testing `layercast loadtest` only: every frame whose number is a multiple of this is
    /// not sent (each client gets the next one in full, a skip); nil sends every frame.
    public var dropFramesEvery: Int?

    /// The embedded defaults, running `scenes`.
    public init(scenes: SceneRegistry) {
        self.scenes = scenes
    }

    /// Seconds between ticks.
    var tickInterval: Double { 1 / Double(min(max(fps, 1), 120)) }
}

import Foundation
import LayercastEngine
import LayercastSceneAPI

/// Re-runs a recorded rain for an audit: the scene is deterministic in its settings, its start
/// time and the accepted taps, because the engine delivers timers and animation events at their
/// exact media times whatever steps the live room advanced in.
public struct RainReplay {
    /// An accepted tap as the ledger recorded it.
    public struct Tap: Equatable, Sendable {
        /// The id of the player who tapped.
        public var player: String
        /// The name the room showed for the player.
        public var name: String
        /// Where the tap landed, in scene points.
        public var point: CGPoint
        /// The resolution time the live room hit-tested at.
        public var viewTime: CFTimeInterval
        /// The room's media time when the tap arrived.
        public var serverTime: CFTimeInterval

        /// A recorded tap.
        public init(player: String, name: String, point: CGPoint, viewTime: CFTimeInterval, serverTime: CFTimeInterval) {
            self.player = player
            self.name = name
            self.point = point
            self.viewTime = viewTime
            self.serverTime = serverTime
        }
    }

    /// What a tap won.
    public struct Outcome: Equatable, Sendable {
        /// The index of the packet the tap won.
        public var packet: Int
        /// The coins the award paid.
        public var coins: Int
        /// The id of the player it paid.
        public var player: String

        /// What tap won packet `packet`: `coins` for `player`.
        public init(packet: Int, coins: Int, player: String) {
            self.packet = packet
            self.coins = coins
            self.player = player
        }
    }

    /// Re-runs rain `id` started at media time `mediaStart` in a fresh scene: each accepted tap in
    /// order goes through `SceneStage.tap`, the path live taps take, at its `serverTime` with its
    /// resolution time as view time, and every claim is committed to a recorder; returns one
    /// result per tap (nil where the tap no longer wins). `settings` must be valid.
    public static func run(id: Int64, settings: RainSettings, configuration: RainScene.Configuration,
                           mediaStart: CFTimeInterval, taps: [Tap]) -> [Outcome?] {
        rebuild(id: id, settings: settings, configuration: configuration, mediaStart: mediaStart, taps: taps).outcomes
    }

    /// `run`, keeping the scene it ran: the stage and scene are where the rain was after its last
    /// tap, for a node that takes the rain over; the events the replay raised are dropped.
    public static func rebuild(id: Int64, settings: RainSettings, configuration: RainScene.Configuration,
                               mediaStart: CFTimeInterval, taps: [Tap]) -> (stage: SceneStage, scene: RainScene, outcomes: [Outcome?]) {
        // The scene's own seed plays no part in a rain.
        let (stage, scene) = SceneStage.make { RainScene(seed: 0, configuration: configuration) }
        stage.advance(to: mediaStart)
        guard stage.run({ scene.startRain(id: id, settings: settings) }) else { return (stage, scene, taps.map { _ in nil }) }
        let recorder = Recorder()
        let outcomes = taps.map { tap -> Outcome? in
            let tapper = Tapper(client: "replay", player: tap.player, name: tap.name)
            let result = stage.tap(at: tap.point, viewTime: tap.viewTime, now: tap.serverTime, by: tapper, awarding: recorder)
            guard result.awarded, let award = recorder.last else { return nil }
            return Outcome(packet: award.claim.item, coins: award.claim.coins, player: award.player)
        }
        _ = stage.takeEvents()
        return (stage, scene, outcomes)
    }

    /// The replay's awarding service: it takes every claim and remembers the last.
    private final class Recorder: ImmediateAwarding {
        var last: Award?

        func commit(_ award: Award) throws -> Int {
            last = award
            return 0
        }
    }
}

import Foundation
import LayercastEngine

/// Re-runs a recorded rain for an audit: the scene is deterministic in its settings, its start
/// time and the accepted taps, because the engine delivers timers and animation events at their
/// exact media times whatever steps the live room advanced in.
public struct RainReplay {
    /// An accepted tap as the ledger recorded it.
    public struct Tap: Equatable, Sendable {
        public var player: String
        public var name: String
        public var point: CGPoint
        /// The resolution time the live room hit-tested at.
        public var viewTime: CFTimeInterval
        /// The room's media time when the tap arrived.
        public var serverTime: CFTimeInterval

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
        public var packet: Int
        public var coins: Int
        public var player: String

        public init(packet: Int, coins: Int, player: String) {
            self.packet = packet
            self.coins = coins
            self.player = player
        }
    }

    /// Re-runs rain `id` started at media time `mediaStart` in a fresh scene on a manual clock: for
    /// each accepted tap in order, advance to `serverTime` (never backwards), `resolveTap(at: point,
    /// time: viewTime)`, and confirm the claim; returns one result per tap (nil where the tap no
    /// longer resolves to a claim). `settings` must be valid.
    public static func run(id: Int64, settings: RainSettings, configuration: RainScene.Configuration,
                           mediaStart: CFTimeInterval, taps: [Tap]) -> [Outcome?] {
        let clock = ManualClock(now: 0)
        let context = SceneContext(clock: clock)
        // The scene's own seed plays no part in a rain.
        let scene = context.run { RainScene(seed: 0, configuration: configuration) }
        func advance(to t: CFTimeInterval) {
            clock.now = max(clock.now, t)
            context.advance(to: clock.now)
        }
        advance(to: mediaStart)
        guard context.run({ scene.startRain(id: id, settings: settings) }) else { return taps.map { _ in nil } }

        var outcomes: [Outcome?] = []
        for tap in taps {
            advance(to: tap.serverTime)
            let outcome: Outcome? = context.run {
                guard case .claim(let claim) = scene.resolveTap(at: tap.point, time: tap.viewTime, by: tap.player) else { return nil }
                scene.confirm(claim, player: tap.player, name: tap.name, total: 0, client: "replay")
                return Outcome(packet: claim.packet, coins: claim.coins, player: tap.player)
            }
            _ = scene.takeEvents()
            outcomes.append(outcome)
        }
        return outcomes
    }
}

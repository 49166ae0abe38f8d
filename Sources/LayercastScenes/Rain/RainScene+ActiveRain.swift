import LayercastEngine
import LayercastSceneAPI

extension RainScene {
    /// The rain a `RainScene` is running, from `startRain` until the scene is idle again: its
    /// settings, plan and times, and who claimed what.
    public struct ActiveRain: Equatable, Sendable {
        /// The rain's id, the one its round is recorded under.
        public var id: Int64
        /// Its settings, salt and per-player limits settled.
        public var settings: RainSettings
        /// Which packets pay and how many coins, decided before it starts.
        public var plan: PrizePlan
        /// Media times: the countdown's start s, the rain's start s+5 and its end s+5+duration.
        public var countdownAt: CFTimeInterval
        /// The media time the packets start to fall.
        public var startsAt: CFTimeInterval
        /// The media time the rain ends: its packets are removed and the results begin.
        public var endsAt: CFTimeInterval
        /// Packet index → the player id that won it.
        public var claimed: [Int: String]
        /// Packet index → the coins its award paid (the plan's prize, cut to the winner's coin limit).
        public var paid: [Int: Int] = [:]
        /// Player id → packets claimed and coins won in this rain.
        public var tallies: [String: RainTally] = [:]
        /// What the rain published before it started.
        public var commitment: RainCommitment
        /// When an operator stopped it (`stopRain`), media time; nil for a rain that ran its course.
        public var stoppedAt: CFTimeInterval?

        /// Coins paid so far.
        public var awarded: Int { paid.values.reduce(0, +) }
    }
}

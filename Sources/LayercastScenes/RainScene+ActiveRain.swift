import LayercastEngine

extension RainScene {
    /// The rain a `RainScene` is running, from `startRain` until the scene is idle again: its
    /// settings, plan and times, and who claimed what.
    public struct ActiveRain: Equatable, Sendable {
        public var id: Int64
        public var settings: RainSettings
        public var plan: PrizePlan
        /// Media times: the countdown's start s, the rain's start s+5 and its end s+5+duration.
        public var countdownAt: CFTimeInterval
        public var startsAt: CFTimeInterval
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

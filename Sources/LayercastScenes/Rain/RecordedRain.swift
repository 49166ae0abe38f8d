import Foundation
import LayercastSceneAPI

/// A running rain as recorded: enough to rebuild it on another node by replaying its awards.
public struct RecordedRain: Sendable {
    /// The rain's id, the one its round is recorded under.
    public var id: Int64
    /// Nil when the record cannot be read back into settings.
    public var settings: RainSettings?
    /// The screen it falls on.
    public var size: CGSize
    /// The media time it was made at, on its room's clock.
    public var mediaStart: Double
    /// Its accepted claims in commit order, and what each won.
    public var awards: [(tap: RainReplay.Tap, outcome: RainReplay.Outcome)]

    /// A rain record from its parts.
    public init(id: Int64, settings: RainSettings?, size: CGSize, mediaStart: Double,
                awards: [(tap: RainReplay.Tap, outcome: RainReplay.Outcome)]) {
        self.id = id
        self.settings = settings
        self.size = size
        self.mediaStart = mediaStart
        self.awards = awards
    }

    /// The rain `round` records; its settings are nil when it is not a round of the rain, or its
    /// settings or salt cannot be read back.
    public init(_ round: RecordedRound) {
        let row = round.scene == RainScene.info.id ? RainRoundSettings(json: round.settings) : nil
        self.init(id: round.id, settings: row.flatMap { RainSettings(row: $0, of: round) }, size: row?.size ?? .zero,
                  mediaStart: round.mediaStart,
                  awards: round.awards.map { (tap: RainReplay.Tap($0), outcome: RainReplay.Outcome($0)) })
    }
}

extension RainReplay.Tap {
    /// The tap that won `award`.
    public init(_ award: RecordedAward) {
        self.init(player: award.player, name: award.name, point: award.point, viewTime: award.viewTime, serverTime: award.serverTime)
    }
}

extension RainReplay.Outcome {
    /// What `award` recorded: its packet (the round's item), coins and player.
    public init(_ award: RecordedAward) {
        self.init(packet: award.item, coins: award.coins, player: award.player)
    }
}

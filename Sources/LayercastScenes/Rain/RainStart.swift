import Foundation
import LayercastSceneAPI

/// A rain as it is recorded when it starts.
public struct RainStart: Sendable {
    /// The room it falls in.
    public var room: String
    /// Its settings, salt and per-player limits settled.
    public var settings: RainSettings
    /// The published hash that commits to its seed and salt until it is over.
    public var commitment: RainCommitment
    /// Which packets pay and how many coins.
    public var plan: PrizePlan
    /// The screen it falls on.
    public var size: CGSize
    /// The players its fair share was counted over.
    public var players: Int
    /// The room's media time when it was made.
    public var mediaStart: Double

    /// The round of the scene `rain` that records it: its packets are the round's items, and
    /// what is its own beside seed and salt goes in the settings JSON (`RainRoundSettings`).
    public var round: RoundStart {
        RoundStart(scene: RainScene.info.id, room: room, seed: settings.seed, salt: RainCommitment.hex(settings.salt),
                   commitment: commitment.digest, settings: RainRoundSettings(self).json, mediaStart: mediaStart,
                   prizes: plan.prizes)
    }
}

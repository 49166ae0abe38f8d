import Foundation
import LayercastEngine

/// What a scene made of a tap (`Scene.tap`).
public enum TapOutcome: Equatable, Sendable {
    /// Nothing to tell the tapper (events for the room, if any, were raised).
    case ignored
    /// Answered in the scene: the tapper's answer is among the events raised.
    case answered
    /// Answered with a refusal under a scene rule (`rule`, counted by the server).
    case refused(rule: String)
    /// Something the tapper would win: the room commits it, then calls `Scene.confirm`.
    case claim(Claim)
}

/// Something a tap would win, as the room commits it: round `round` (a rain), item `item` (a
/// packet) paying `coins`, tapped at `point` with the presentation at `time`.
public struct Claim: Equatable, Sendable {
    /// The round (a rain's id) the item belongs to.
    public var round: Int64
    /// The item's index in the round (a packet).
    public var item: Int
    /// The coins the item pays.
    public var coins: Int
    /// Where the tap landed, in scene points.
    public var point: CGPoint
    /// The resolution time the scene was hit-tested at.
    public var time: CFTimeInterval

    /// A claim of `item` of `round` paying `coins`, tapped at `point` at resolution time `time`.
    public init(round: Int64, item: Int, coins: Int, point: CGPoint, time: CFTimeInterval) {
        self.round = round
        self.item = item
        self.coins = coins
        self.point = point
        self.time = time
    }
}

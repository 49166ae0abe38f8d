import Foundation
import LayercastEngine
import LayercastSceneAPI

/// The rain's options on `layercast serve` (`--rain-…`, `LAYERCAST_RAIN_…`; docs/scenes.md): its
/// screen, results time, schedule and what a rain is when a request leaves it open.
public struct RainOptions: Equatable, Sendable {
    /// The scene's screen and results time.
    public var scene = RainScene.Configuration()
    /// What a rain is when a request or the schedule leaves it open (the seed and salt are
    /// always drawn; the per-player limits come from the two below).
    public var defaults = RainSettings()
    /// Packets one player may claim in a rain a request leaves open; nil: twice an equal share of
    /// the packets among the players in the room when the rain is made; 0: no limit.
    public var maxAwardsPerPlayer: Int?
    /// Coins one player may win in such a rain; nil: twice an equal share of the pool; 0: no limit.
    public var maxCoinsPerPlayer: Int?
    /// Seconds a rain room with clients waits, idle, before it starts a rain on its own; 0 never.
    public var everySeconds: Double = 15

    /// The embedded defaults.
    public init() {}

    /// The options `values` hold (declared by `declared`).
    public init(_ values: SceneOptionValues) {
        everySeconds = values.number("rain-every")
        defaults = Self.settings(values)
        maxAwardsPerPlayer = Self.limit(values.text("rain-max-awards")) ?? nil
        maxCoinsPerPlayer = Self.limit(values.text("rain-max-coins-per-player")) ?? nil
        scene.size = Self.size(values.text("rain-screen")) ?? scene.size
        scene.resultsDuration = values.number("rain-results")
    }

    /// The rain's options, with the flags' names and help of `layercast serve` before scenes
    /// declared their own.
    public static let declared: [SceneOption] = {
        let settings = RainSettings(), options = RainOptions()
        return [
            .number("rain-every", default: options.everySeconds, in: 0...Double.greatestFiniteMagnitude, valueName: "seconds",
                    help: "Seconds a rain room with clients stays idle before it starts a rain on its own; 0 only on request."),
            .number("rain-duration", default: settings.duration,
                    valueName: "seconds", help: "Seconds a rain falls, unless a request says otherwise."),
            .integer("rain-pool", default: settings.pool, help: "Coins shared by a rain's winning packets, unless a request says otherwise."),
            .integer("rain-winners", default: settings.winners, help: "Winning packets per rain, unless a request says otherwise."),
            .integer("rain-min-coins", default: settings.minCoins, help: "Fewest coins one winning packet pays, unless a request says otherwise."),
            .integer("rain-max-coins", default: settings.maxCoins, help: "Most coins one winning packet pays, unless a request says otherwise."),
            .text("rain-max-awards", default: "auto", valueName: "auto|n",
                  help: "Packets one player may claim per rain: auto (twice an equal share among the players in the room when it starts), or a number (0: no limit).",
                  rule: { limit($0) == nil ? "must be auto or an integer ≥ 0" : nil }),
            .text("rain-max-coins-per-player", default: "auto", valueName: "auto|n",
                  help: "Coins one player may win per rain: auto (twice an equal share of the pool), or a number (0: no limit).",
                  rule: { limit($0) == nil ? "must be auto or an integer ≥ 0" : nil }),
            .number("rain-min-visible", default: settings.minVisible,
                    valueName: "seconds", help: "Seconds a packet must have been on a player's screen before that player can claim it."),
            .number("rain-tap-rate", default: settings.tapRate,
                    help: "Taps per second one player may make while a rain runs (1–20)."),
            .text("rain-screen", default: "414x736", valueName: "size",
                  help: "The rain's screen in points, WIDTHxHEIGHT (the seed's iPhone Plus).",
                  rule: { size($0) == nil ? "must be WIDTHxHEIGHT, each 100…4000 points, e.g. 414x736" : nil }),
            .number("rain-results", default: options.scene.resultsDuration, in: 0...3600, valueName: "seconds",
                    help: "Seconds the results of a rain are shown before the room idles."),
        ]
    }()

    /// Why the rain defaults cannot make a rain together (`RainSettings.validationError`).
    static func validationError(_ values: SceneOptionValues) -> String? {
        settings(values).validationError().map { "rain defaults: \($0)" }
    }

    private static func settings(_ values: SceneOptionValues) -> RainSettings {
        RainSettings(duration: values.number("rain-duration"), pool: values.integer("rain-pool"), winners: values.integer("rain-winners"),
                     minCoins: values.integer("rain-min-coins"), maxCoins: values.integer("rain-max-coins"),
                     minVisible: values.number("rain-min-visible"), tapRate: values.number("rain-tap-rate"))
    }

    /// A per-player limit: `.some(nil)` for auto, `.some(n)` for n ≥ 0, nil when malformed.
    private static func limit(_ text: String) -> Int?? {
        if text == "auto" { return .some(nil) }
        guard let n = Int(text), n >= 0 else { return nil }
        return .some(n)
    }

    /// The screen of `WIDTHxHEIGHT`, nil when malformed or outside 100…4000 points.
    private static func size(_ text: String) -> CGSize? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              (100...4000).contains(width), (100...4000).contains(height) else { return nil }
        return CGSize(width: width, height: height)
    }
}

import Foundation
import LayercastJSON
import LayercastSceneAPI

/// What a rain records as its round's settings (`RoundStart.settings`), beside its seed and salt:
/// its settings, the screen it fell on and the players its fair share was counted over, as one
/// JSON object of numbers named as in `GET /api/rains/{rain}` (`duration`, `pool`, `winners`,
/// `minCoins`, `maxCoins`, `width`, `height`, `maxAwardsPerPlayer`, `maxCoinsPerPlayer`,
/// `minVisible`, `tapRate`, `players`). Doubles are written with their shortest exact digits, so
/// they read back bit for bit; ledger schema 5 turned the rains of older versions into the same.
public struct RainRoundSettings: Equatable, Sendable {
    /// Seconds the rain falls.
    public var duration: Double
    /// Coins the winning packets share, exactly.
    public var pool: Int
    /// Packets that pay.
    public var winners: Int
    /// The fewest coins a winning packet carries.
    public var minCoins: Int
    /// The most coins a winning packet carries.
    public var maxCoins: Int
    /// The width of the screen it fell on, in points.
    public var width: Double
    /// The height of the screen it fell on, in points.
    public var height: Double
    /// The most packets one player may win in the rain (0: no limit).
    public var maxAwardsPerPlayer: Int
    /// The most coins one player may win in the rain (0: no limit).
    public var maxCoinsPerPlayer: Int
    /// Seconds a packet must have been on screen before a tap on it counts (0: none).
    public var minVisible: Double
    /// Taps a second one player may make while it falls.
    public var tapRate: Double
    /// The players in the room when the rain was made, whom its fair-share limits divide by.
    public var players: Int

    /// The settings of a rain, with the limits left at none and 20 taps a second unless given.
    public init(duration: Double, pool: Int, winners: Int, minCoins: Int, maxCoins: Int, width: Double, height: Double,
                maxAwardsPerPlayer: Int = 0, maxCoinsPerPlayer: Int = 0, minVisible: Double = 0, tapRate: Double = 20,
                players: Int = 0) {
        self.duration = duration
        self.pool = pool
        self.winners = winners
        self.minCoins = minCoins
        self.maxCoins = maxCoins
        self.width = width
        self.height = height
        self.maxAwardsPerPlayer = maxAwardsPerPlayer
        self.maxCoinsPerPlayer = maxCoinsPerPlayer
        self.minVisible = minVisible
        self.tapRate = tapRate
        self.players = players
    }

    /// The settings, screen and players of `rain`.
    public init(_ rain: RainStart) {
        let settings = rain.settings
        self.init(duration: settings.duration, pool: settings.pool, winners: settings.winners,
                  minCoins: settings.minCoins, maxCoins: settings.maxCoins,
                  width: Double(rain.size.width), height: Double(rain.size.height),
                  maxAwardsPerPlayer: settings.maxAwardsPerPlayer, maxCoinsPerPlayer: settings.maxCoinsPerPlayer,
                  minVisible: settings.minVisible, tapRate: settings.tapRate, players: rain.players)
    }

    /// Reads the JSON `json`; nil when it is not an object with every member a number (whole
    /// where the member is a count).
    public init?(json: String) {
        guard let value = try? JSONValue.parse(json), value.objectValue != nil else { return nil }
        func real(_ key: String) -> Double? { value[key]?.doubleValue }
        func whole(_ key: String) -> Int? { value[key]?.intValue }
        guard let duration = real("duration"), let pool = whole("pool"), let winners = whole("winners"),
              let minCoins = whole("minCoins"), let maxCoins = whole("maxCoins"), let width = real("width"),
              let height = real("height"), let maxAwards = whole("maxAwardsPerPlayer"), let maxCoinsEach = whole("maxCoinsPerPlayer"),
              let minVisible = real("minVisible"), let tapRate = real("tapRate"), let players = whole("players")
        else { return nil }
        self.init(duration: duration, pool: pool, winners: winners, minCoins: minCoins, maxCoins: maxCoins, width: width,
                  height: height, maxAwardsPerPlayer: maxAwards, maxCoinsPerPlayer: maxCoinsEach, minVisible: minVisible,
                  tapRate: tapRate, players: players)
    }

    /// The JSON object, members in the order above. A double that is not finite (which no valid
    /// rain has) is written as 0.
    public var json: String {
        func real(_ value: Double) -> String { value.isFinite ? "\(value)" : "0" }
        let members: [(String, String)] = [
            ("duration", real(duration)), ("pool", "\(pool)"), ("winners", "\(winners)"), ("minCoins", "\(minCoins)"),
            ("maxCoins", "\(maxCoins)"), ("width", real(width)), ("height", real(height)),
            ("maxAwardsPerPlayer", "\(maxAwardsPerPlayer)"), ("maxCoinsPerPlayer", "\(maxCoinsPerPlayer)"),
            ("minVisible", real(minVisible)), ("tapRate", real(tapRate)), ("players", "\(players)"),
        ]
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The screen the rain fell on.
    public var size: CGSize { CGSize(width: width, height: height) }

    /// The settings as the `GET /api/rains/{rain}` document shows them (everything but `players`).
    public var document: JSONValue {
        ["duration": .number(duration), "pool": .number(Double(pool)), "winners": .number(Double(winners)),
         "minCoins": .number(Double(minCoins)), "maxCoins": .number(Double(maxCoins)), "width": .number(width),
         "height": .number(height), "maxAwardsPerPlayer": .number(Double(maxAwardsPerPlayer)),
         "maxCoinsPerPlayer": .number(Double(maxCoinsPerPlayer)), "minVisible": .number(minVisible), "tapRate": .number(tapRate)]
    }
}

extension RainSettings {
    /// The settings a rain recorded as `round` (with settings `row`) was run with; nil when its
    /// salt is not hex.
    public init?(row: RainRoundSettings, of round: RecordedRound) {
        guard let salt = RainCommitment.bytes(hex: round.salt) else { return nil }
        self.init(duration: row.duration, pool: row.pool, winners: row.winners, minCoins: row.minCoins,
                  maxCoins: row.maxCoins, seed: round.seed, maxAwardsPerPlayer: row.maxAwardsPerPlayer,
                  maxCoinsPerPlayer: row.maxCoinsPerPlayer, minVisible: row.minVisible, tapRate: row.tapRate, salt: salt)
    }
}

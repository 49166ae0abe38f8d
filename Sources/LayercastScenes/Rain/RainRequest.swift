import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// The body of `POST /api/rooms/{room}/rain` (docs/protocol.md, "Admin API"): a JSON object
/// whose every field is optional, the rest taken from the server's defaults.
public enum RainRequest {
    /// A rain as asked for: its settings, and the per-player limits, nil where they are left to
    /// twice an equal share among the players in the room when the rain is made.
    public struct Order: Sendable {
        /// The rain's settings, the server's defaults where the body left a field out.
        public var settings: RainSettings
        /// Most packets one player may claim; nil for twice an equal share.
        public var maxAwardsPerPlayer: Int?
        /// Most coins one player may win; nil for twice an equal share.
        public var maxCoinsPerPlayer: Int?

        /// An order for a rain with `settings`, the limits left to the fair share unless given.
        public init(settings: RainSettings, maxAwardsPerPlayer: Int? = nil, maxCoinsPerPlayer: Int? = nil) {
            self.settings = settings
            self.maxAwardsPerPlayer = maxAwardsPerPlayer
            self.maxCoinsPerPlayer = maxCoinsPerPlayer
        }

        /// The settings of this rain in a room of `players` players.
        public func settings(players: Int) -> RainSettings {
            var settings = settings
            let fair = RainSettings.fairShareLimits(packets: settings.packets, pool: settings.pool, players: players)
            settings.maxAwardsPerPlayer = maxAwardsPerPlayer ?? fair.awards
            settings.maxCoinsPerPlayer = maxCoinsPerPlayer ?? fair.coins
            return settings
        }
    }

    /// The fields a body may have.
    public static let fields: Set = [
        "duration", "pool", "winners", "minCoins", "maxCoins", "seed", "maxAwardsPerPlayer", "maxCoinsPerPlayer",
        "minVisible", "tapRate",
    ]

    /// The rain a body asks for, validated; an empty body asks for `defaults` with `seed`.
    public static func order(from body: [UInt8], defaults: Order, seed: UInt64) -> Result<Order, APIError> {
        Result { () throws(APIError) in try parse(body, defaults: defaults, seed: seed) }
    }

    private static func parse(_ body: [UInt8], defaults: Order, seed: UInt64) throws(APIError) -> Order {
        var order = defaults
        order.settings.seed = seed
        if let body = try AdminRequestBody.read(body, path: "rain", fields: fields) {
            do throws(ProtocolError) {
                try read(body, into: &order)
            } catch {
                throw APIError(400, .badField, error.message)
            }
        }
        if let problem = order.settings(players: 1).validationError() { throw APIError(400, .badField, problem) }
        return order
    }

    private static func read(_ body: FieldReader, into order: inout Order) throws(ProtocolError) {
        if let field = body.member("duration").present { order.settings.duration = try field.number("a finite number of seconds") }
        if let field = body.member("pool").present { order.settings.pool = try field.integer() }
        if let field = body.member("winners").present { order.settings.winners = try field.integer() }
        if let field = body.member("minCoins").present { order.settings.minCoins = try field.integer() }
        if let field = body.member("maxCoins").present { order.settings.maxCoins = try field.integer() }
        if let field = body.member("seed").present {
            let n = try field.integer()
            guard n >= 0 else { throw field.error("an integer from 0 to 2^53−1") }
            order.settings.seed = UInt64(n)
        }
        if let field = body.member("maxAwardsPerPlayer").present { order.maxAwardsPerPlayer = try field.integer() }
        if let field = body.member("maxCoinsPerPlayer").present { order.maxCoinsPerPlayer = try field.integer() }
        if let field = body.member("minVisible").present { order.settings.minVisible = try field.number("a finite number of seconds") }
        if let field = body.member("tapRate").present { order.settings.tapRate = try field.number("a finite number of taps per second") }
    }
}

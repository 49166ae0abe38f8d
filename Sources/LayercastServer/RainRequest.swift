import LayercastJSON
import LayercastScenes
import LayercastWire

/// The body of `POST /api/rooms/{room}/rain` (docs/protocol.md, "Admin API"): a JSON object
/// whose every field is optional, the rest taken from the server's defaults.
enum RainRequest {
    /// The fields a body may have.
    static let fields: Set = ["duration", "pool", "winners", "minCoins", "maxCoins", "seed"]

    /// The settings a body asks for, validated; an empty body asks for the defaults with `seed`.
    static func settings(from body: [UInt8], defaults: RainSettings, seed: UInt64) -> Result<RainSettings, APIError> {
        Result { () throws(APIError) in try parse(body, defaults: defaults, seed: seed) }
    }

    private static func parse(_ body: [UInt8], defaults: RainSettings, seed: UInt64) throws(APIError) -> RainSettings {
        var settings = defaults
        settings.seed = seed
        guard let body = try AdminRequestBody.read(body, path: "rain", fields: fields) else { return settings }
        do throws(ProtocolError) {
            if let field = body.member("duration").present { settings.duration = try field.number("a finite number of seconds") }
            if let field = body.member("pool").present { settings.pool = try field.integer() }
            if let field = body.member("winners").present { settings.winners = try field.integer() }
            if let field = body.member("minCoins").present { settings.minCoins = try field.integer() }
            if let field = body.member("maxCoins").present { settings.maxCoins = try field.integer() }
            if let field = body.member("seed").present {
                let n = try field.integer()
                guard n >= 0 else { throw field.error("an integer from 0 to 2^53−1") }
                settings.seed = UInt64(n)
            }
        } catch {
            throw APIError(400, "bad_field", error.message)
        }
        if let problem = settings.validationError() { throw APIError(400, "bad_field", problem) }
        return settings
    }
}

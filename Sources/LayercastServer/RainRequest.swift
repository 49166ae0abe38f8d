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
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return settings }
        let value: JSONValue
        switch body.withUnsafeBytes({ bytes in Result { () throws(JSONParseError) in try JSONValue.parse(bytes: bytes) } }) {
        case .success(let parsed): value = parsed
        case .failure(let error): throw APIError(400, "bad_json", "body is not JSON: \(error.message)")
        }
        guard case .object(let object) = value else { throw APIError(400, "bad_json", "body must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw APIError(400, "bad_field", "unknown field \(FieldReader.quoted(unknown)); fields are \(fields.sorted().joined(separator: ", "))")
        }
        let body = FieldReader(value, path: "rain")
        do throws(ProtocolError) {
            if let field = present(body.member("duration")) { settings.duration = try field.number("a finite number of seconds") }
            if let field = present(body.member("pool")) { settings.pool = try field.integer() }
            if let field = present(body.member("winners")) { settings.winners = try field.integer() }
            if let field = present(body.member("minCoins")) { settings.minCoins = try field.integer() }
            if let field = present(body.member("maxCoins")) { settings.maxCoins = try field.integer() }
            if let field = present(body.member("seed")) {
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

    private static func present(_ field: FieldReader) -> FieldReader? {
        field.isAbsentOrNull ? nil : field
    }
}

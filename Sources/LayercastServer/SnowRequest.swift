import LayercastJSON
import LayercastScenes
import LayercastWire

/// The body of `POST /api/rooms/{room}/snow` (docs/protocol.md, "Admin API"): a JSON object
/// whose every field is optional, the rest kept from the room's current settings.
enum SnowRequest {
    /// The fields a body may have.
    static let fields: Set = ["images", "rate", "mode"]

    /// The settings a body asks for, validated; an empty body keeps `current`.
    static func settings(from body: [UInt8], current: SnowSettings) -> Result<SnowSettings, APIError> {
        Result { () throws(APIError) in try parse(body, current: current) }
    }

    private static func parse(_ body: [UInt8], current: SnowSettings) throws(APIError) -> SnowSettings {
        var settings = current
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
        let body = FieldReader(value, path: "snow")
        do throws(ProtocolError) {
            if let field = present(body.member("images")) {
                var images: [String] = []
                for image in try field.array("an array of image ids") { images.append(try image.string()) }
                settings.images = images
            }
            if let field = present(body.member("rate")) {
                settings.rate = try field.number("a number of particles per second from 0 to \(Int(SnowSettings.maxRate))",
                                                 in: 0...SnowSettings.maxRate)
            }
            if let field = present(body.member("mode")) {
                let modes = SnowSettings.Mode.allCases.map(\.rawValue)
                guard let mode = SnowSettings.Mode(rawValue: try field.string()) else {
                    throw field.error("one of \(modes.joined(separator: ", "))")
                }
                settings.mode = mode
            }
        } catch {
            throw APIError(400, "bad_field", error.message)
        }
        if let problem = settings.validationError(assets: SnowScene.info.assets.map(\.id)) {
            throw APIError(400, "bad_field", problem)
        }
        return settings
    }

    private static func present(_ field: FieldReader) -> FieldReader? {
        field.isAbsentOrNull ? nil : field
    }
}

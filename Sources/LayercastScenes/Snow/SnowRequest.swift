import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// The body of `POST /api/rooms/{room}/snow` (docs/protocol.md, "Admin API"): a JSON object
/// whose every field is optional, the rest kept from the room's current settings.
public enum SnowRequest {
    /// The fields a body may have.
    public static let fields: Set = ["images", "rate", "mode"]

    /// The settings a body asks for, validated; an empty body keeps `current`.
    public static func settings(from body: [UInt8], current: SnowSettings) -> Result<SnowSettings, APIError> {
        Result { () throws(APIError) in try parse(body, current: current) }
    }

    private static func parse(_ body: [UInt8], current: SnowSettings) throws(APIError) -> SnowSettings {
        var settings = current
        guard let body = try AdminRequestBody.read(body, path: "snow", fields: fields) else { return settings }
        do throws(ProtocolError) {
            if let field = body.member("images").present {
                var images: [String] = []
                for image in try field.array("an array of image ids") { images.append(try image.string()) }
                settings.images = images
            }
            if let field = body.member("rate").present {
                settings.rate = try field.number("a number of particles per second from 0 to \(Int(SnowSettings.maxRate))",
                                                 in: 0...SnowSettings.maxRate)
            }
            if let field = body.member("mode").present {
                let modes = SnowSettings.Mode.allCases.map(\.rawValue)
                guard let mode = SnowSettings.Mode(rawValue: try field.string()) else {
                    throw field.error("one of \(modes.joined(separator: ", "))")
                }
                settings.mode = mode
            }
        } catch {
            throw APIError(400, .badField, error.message)
        }
        if let problem = settings.validationError(assets: SnowScene.info.assets.map(\.id)) {
            throw APIError(400, .badField, problem)
        }
        return settings
    }
}

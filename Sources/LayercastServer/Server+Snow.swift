import LayercastJSON
import LayercastScenes
import LayercastWire

// The snowfall's admin request: the server chooses what falls (docs/protocol.md, "Admin API").
extension Server {
    /// What the snow room `name` shows now; the scene's defaults when the room does not exist.
    func snowSettings(inRoom name: String) -> SnowSettings {
        (rooms["\(SnowScene.info.id)/\(name)"]?.scene as? SnowScene)?.settings ?? SnowSettings()
    }

    /// Changes what falls in the snow room `name` from now on (creating the room when nobody is
    /// in it yet); falling particles keep theirs. Answers the new settings.
    func setSnow(inRoom name: String, settings: SnowSettings, now: Double) -> Result<JSONValue, APIError> {
        let room = room(scene: SnowScene.self, name: name, now: now)
        guard let scene = room.scene as? SnowScene else {
            return .failure(APIError(500, "internal", "room \(name) holds no snow scene"))
        }
        room.advance(to: now)
        let changed = room.context.run { scene.setSnow(settings) }
        guard changed else { return .failure(APIError(400, "bad_field", "the snow scene refused the settings")) }
        logger.info("snow changed", metadata: ["room": "\(name)", "mode": "\(settings.mode.rawValue)", "rate": "\(settings.rate)"])
        broadcast(room.takeEvents(), in: room, tapArrival: nil)
        return .success([
            "room": .string(name), "images": .array(settings.images.map(JSONValue.string)),
            "rate": .number(settings.rate), "mode": .string(settings.mode.rawValue),
            "emittedRate": .number(settings.emittedRate), "time": .number(Quantize.time(room.mediaTime(at: now))),
        ])
    }
}

import LayercastJSON
import LayercastSceneAPI
import LayercastWire
import Logging

/// The snowfall in its room: the admin command that changes what falls (docs/protocol.md,
/// "Admin API").
public final class SnowController: SceneController {
    public let stage: SceneStage
    public let awarding: any Awarding = NoAwards()
    private let scene: SnowScene
    private let logger: Logger

    init(scene: SnowScene, stage: SceneStage, logger: Logger) {
        self.scene = scene
        self.stage = stage
        self.logger = logger
    }

    /// `POST /api/rooms/{room}/snow`: changes what falls from now on (falling particles keep
    /// theirs), the body's fields over the current settings; answers the new settings.
    public func perform(_ command: String, body: [UInt8], in room: any ControlledRoom) -> Result<CommandAnswer, APIError> {
        SnowRequest.settings(from: body, current: scene.settings).flatMap { settings in
            stage.advance(to: room.mediaTime(at: room.now))
            guard stage.run({ scene.setSnow(settings) }) else {
                return .failure(APIError(400, .badField, "the snow scene refused the settings"))
            }
            logger.info("snow changed", metadata: ["room": "\(room.name)", "mode": "\(settings.mode.rawValue)", "rate": "\(settings.rate)"])
            return .success(CommandAnswer([
                "room": .string(room.name), "images": .array(settings.images.map(JSONValue.string)),
                "rate": .number(settings.rate), "mode": .string(settings.mode.rawValue),
                "emittedRate": .number(settings.emittedRate), "time": .number(Quantize.time(stage.now)),
            ]))
        }
    }
}

import Foundation
import LayercastJSON
import LayercastSceneKit

/// The server's messages other than `frame` (protocol.md, "Server → client").
public enum ServerMessage {
    /// The protocol version `welcome` announces: 2 since draw items gained paths, shapes,
    /// gradients, groups (clips and masks), replicator copies and additive particles.
    public static let protocolVersion = 2

    /// The draw-item features a client must know to draw this server's frames (protocol.md,
    /// "welcome"); a client that lacks one refuses to draw rather than drawing nonsense.
    public static let features = ["paths", "shape", "gradient", "group", "replicator", "additive", "imagetint"]

    /// `welcome`: the room, the scene's catalogue entry and assets, this client's role and id,
    /// the room's frame rate and media time (1e-6 s), the scene's words (`SceneWords`), and for a
    /// player who it is (`player`); sizes are quantised to 1e-2 pt.
    public static func welcome(room: String, scene: SceneInfo, role: String, client: String, fps: Int, time: Double,
                               player: JSONValue? = nil) -> JSONValue {
        var assets = JSONObject()
        for asset in scene.assets {
            assets[asset.id] = ["url": .string(asset.url(scene: scene.id)), "width": points(asset.width), "height": points(asset.height)]
        }
        var object: JSONObject = [
            "type": "welcome", "protocol": .number(Double(protocolVersion)), "room": .string(room),
            "scene": .string(scene.id), "title": .string(scene.title), "role": .string(role), "client": .string(client),
            "size": ["width": points(scene.size.width), "height": points(scene.size.height)],
            "fps": .number(Double(fps)), "interactions": .array(scene.interactions.map { .string($0) }),
            "assets": .object(assets), "time": .number(Quantize.time(time)),
            "features": .array(features.map { .string($0) }),
        ]
        for (key, value) in SceneWords.fields(of: scene) { object[key] = value }
        if let player { object["player"] = player }
        return .object(object)
    }

    /// `event`: `{"type":"event","name":…,"by":…,"data":…}`, `by` only when a client caused it.
    public static func event(_ event: SceneEvent) -> JSONValue {
        var object: JSONObject = ["type": "event", "name": .string(event.name)]
        if let client = event.client { object["by"] = .string(client) }
        object["data"] = event.data
        return .object(object)
    }

    /// `error`: `{"type":"error","code":…,"message":…}`.
    public static func error(_ error: ProtocolError) -> JSONValue {
        ["type": "error", "code": .string(error.code.rawValue), "message": .string(error.message)]
    }

    /// `pong`: echoes the ping's `id` (left out when it had none) with the room's media time.
    public static func pong(id: Double?, time: Double) -> JSONValue {
        var object: JSONObject = ["type": "pong"]
        if let id { object["id"] = .number(id) }
        object["time"] = .number(Quantize.time(time))
        return .object(object)
    }

    private static func points(_ x: CGFloat) -> JSONValue {
        .number(Quantize.points(Double(x)))
    }
}

import Foundation
import LayercastJSON
import LayercastSceneAPI

/// The server's messages other than `frame` (protocol.md, "Server → client").
public enum ServerMessage {
    /// The protocol version `welcome` announces: 2 since draw items gained paths, shapes,
    /// gradients, groups (clips and masks), replicator copies and additive particles.
    public static let protocolVersion = 2

    /// The draw-item and stream features a client must know to draw this server's frames
    /// (protocol.md, "welcome"; `sparse`: no frame for a tick that changed nothing, and deltas
    /// that name their first frame `b`; `acks`: the server takes `ack` messages; `births`: particles
    /// travel as birth records, `pk`/`pt`/`pb`/`pba`/`pbr`); a client that
    /// lacks one refuses rather than drawing nonsense.
    public static let features = ["paths", "shape", "gradient", "group", "replicator", "additive", "imagetint", "sparse", "acks", "births"]

    /// `welcome`: the room, the scene's catalogue entry and assets, this client's role and id,
    /// the room's frame rate and media time (1e-6 s), the scene's words (`SceneWords`), and for a
    /// player who it is (`player`); sizes are quantised to 1e-2 pt.
    public static func welcome(room: String, scene: SceneInfo, role: String, client: String, fps: Int, time: Double,
                               player: JSONValue? = nil) -> JSONValue {
        welcome(room: room, sceneFields: SceneFields.of(scene), role: role, client: client, fps: fps, time: time, player: player)
    }

    /// `welcome` with the scene's fields as `SceneFields` wrote them (on this node, or on the
    /// cluster node that runs the scene).
    public static func welcome(room: String, sceneFields: JSONObject, role: String, client: String, fps: Int, time: Double,
                               player: JSONValue? = nil) -> JSONValue {
        var object: JSONObject = [
            "type": "welcome", "protocol": .number(Double(protocolVersion)), "room": .string(room),
            "scene": sceneFields["scene"] ?? .null, "title": sceneFields["title"] ?? .null, "role": .string(role),
            "client": .string(client), "size": sceneFields["size"] ?? .null, "fps": .number(Double(fps)),
            "interactions": sceneFields["interactions"] ?? .array([]), "assets": sceneFields["assets"] ?? .object([:]),
            "time": .number(Quantize.time(time)), "features": .array(features.map { .string($0) }),
        ]
        for (key, value) in sceneFields where object[key] == nil { object[key] = value }
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
}

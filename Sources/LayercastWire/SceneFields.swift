import Foundation
import LayercastJSON
import LayercastSceneAPI

/// The fields of `welcome` that come from the scene (protocol.md, "welcome"): `scene`, `title`,
/// `size`, `interactions`, `assets` and the scene's words (`SceneWords`), in that order, sizes
/// quantised to 1e-2 pt. A cluster node publishes them for each scene it runs (docs/cluster.md),
/// so that a node without the scene welcomes its clients as the scene's origin would.
public enum SceneFields {
    /// The fields of the scene `info` describes.
    public static func of(_ info: SceneInfo) -> JSONObject {
        var assets = JSONObject()
        for asset in info.assets {
            assets[asset.id] = ["url": .string(asset.url(scene: info.id)), "width": points(asset.width), "height": points(asset.height)]
        }
        var object: JSONObject = [
            "scene": .string(info.id), "title": .string(info.title),
            "size": ["width": points(info.size.width), "height": points(info.size.height)],
            "interactions": .array(info.interactions.map { .string($0) }), "assets": .object(assets),
        ]
        for (key, value) in SceneWords.fields(of: info) { object[key] = value }
        return object
    }

    /// Whether `value` has the fields `of` writes, with the types it writes them in: a scene id,
    /// a title, a size, interactions and assets (the words are optional).
    public static func isValid(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value, case .string? = object["scene"], case .string? = object["title"],
              case .object(let size)? = object["size"], case .number? = size["width"], case .number? = size["height"],
              case .array? = object["interactions"], case .object? = object["assets"] else { return false }
        return true
    }

    private static func points(_ x: CGFloat) -> JSONValue { .number(Quantize.points(Double(x))) }
}

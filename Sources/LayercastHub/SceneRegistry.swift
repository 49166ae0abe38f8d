import Foundation
import LayercastSceneAPI

/// The scenes a service runs, in the order `/api/scenes` and the index list them. The hub, its
/// joins, commands and documents know only the scenes they were given here. Made once at start.
public struct SceneRegistry: @unchecked Sendable {  // metatypes: immutable, read on the hub's thread
    /// The registered scene types, in order.
    public let scenes: [any Scene.Type]
    /// The image files the scenes ship as resources (`SceneAsset.Source.resource`), read at
    /// registration: scene id → path in its bundle → file.
    package let assetFiles: [String: [String: SceneAssetFile]]

    /// The registry of `scenes`, with their resource images read; throws when two share an id,
    /// an id breaks `NameRule`, an option name is malformed, two options (of one scene or two)
    /// share a name, two images of a scene share an id, or an image's resource path is malformed
    /// or its file missing, unreadable or over `SceneAssetFile.maxBytes`.
    public init(_ scenes: [any Scene.Type]) throws(SceneRegistryError) {
        var seen: Set<String> = [], options: Set<String> = []
        var assetFiles: [String: [String: SceneAssetFile]] = [:]
        for scene in scenes {
            let id = scene.info.id
            guard NameRule.isValid(id) else { throw .badID(id) }
            guard seen.insert(id).inserted else { throw .duplicateID(id) }
            for option in scene.options {
                guard SceneOption.isValidName(option.name) else { throw .badOption(scene: id, option.name) }
                guard options.insert(option.name).inserted else { throw .duplicateOption(scene: id, option.name) }
            }
            assetFiles[id] = try Self.readAssets(of: scene.info)
        }
        self.scenes = scenes
        self.assetFiles = assetFiles.filter { !$0.value.isEmpty }
    }

    /// The resource images of the scene `info`, by path in their bundle (an image named twice is read once).
    private static func readAssets(of info: SceneInfo) throws(SceneRegistryError) -> [String: SceneAssetFile] {
        var ids: Set<String> = [], files: [String: SceneAssetFile] = [:]
        for asset in info.assets {
            guard ids.insert(asset.id).inserted else { throw .duplicateAsset(scene: info.id, asset.id) }
            guard case .resource(let path, let bundle) = asset.source, files[path] == nil else { continue }
            guard SceneAssetFile.isValidPath(path) else { throw .badAssetPath(scene: info.id, asset: asset.id, path) }
            let file = (bundle.resourceURL ?? bundle.bundleURL).appendingPathComponent(path).path
            do {
                files[path] = try SceneAssetFile.read(path: file)
            } catch {
                throw .unreadableAsset(scene: info.id, asset: asset.id, file: file, reason: error.reason)
            }
        }
        return files
    }

    /// The image file at `path` of the scene `scene`, if that scene ships one there.
    package func assetFile(scene: String, path: String) -> SceneAssetFile? {
        assetFiles[scene]?[path]
    }

    /// The scene type with this id, if registered.
    public func scene(id: String) -> (any Scene.Type)? {
        scenes.first { $0.info.id == id }
    }

    /// The scenes that take the admin command `name`, in order.
    public func scenes(taking command: String) -> [any Scene.Type] {
        scenes.filter { $0.commands.contains(command) }
    }

    /// Each scene that has tap rules, with them in order (`layercast_claims_refused_total`'s
    /// scenes and rules), in the registry's order.
    public var tapRules: [(scene: String, rules: [String])] {
        scenes.filter { !$0.tapRules.isEmpty }.map { ($0.info.id, $0.tapRules) }
    }
}

/// Why a list of scenes cannot be registered.
public enum SceneRegistryError: Error, Equatable, CustomStringConvertible {
    case duplicateID(String)
    case badID(String)
    case badOption(scene: String, String)
    case duplicateOption(scene: String, String)
    case duplicateAsset(scene: String, String)
    case badAssetPath(scene: String, asset: String, String)
    case unreadableAsset(scene: String, asset: String, file: String, reason: String)

    public var description: String {
        switch self {
        case .duplicateID(let id): "two scenes have the id \"\(id)\": each scene's SceneInfo.id must be its own"
        case .badID(let id): "the scene id \"\(id)\" is not \(NameRule.description)"
        case .badOption(let scene, let name):
            "the scene \"\(scene)\" has an option named \"\(name)\": an option's name is 1…48 lowercase letters, digits and inner '-', starting with a letter"
        case .duplicateOption(let scene, let name):
            "the scene \"\(scene)\" declares the option --\(name), which another option already has: each option's name must be its own"
        case .duplicateAsset(let scene, let id):
            "the scene \"\(scene)\" declares two images with the id \"\(id)\": each image's SceneAsset.id must be its own"
        case .badAssetPath(let scene, let asset, let path):
            "the scene \"\(scene)\" declares its image \"\(asset)\" as the resource \"\(path)\": a resource path is 1–200 bytes of segments joined by '/', each of A–Z a–z 0–9 . _ - and not starting with '.'"
        case .unreadableAsset(let scene, let asset, let file, let reason):
            "the scene \"\(scene)\" cannot serve its image \"\(asset)\": \(file): \(reason)"
        }
    }
}

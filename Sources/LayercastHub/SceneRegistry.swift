import LayercastScenes

/// The scenes a service runs, in the order `/api/scenes` and the index list them. The hub, its
/// joins, commands and documents know only the scenes they were given here. Made once at start.
public struct SceneRegistry: @unchecked Sendable {  // metatypes: immutable, read on the hub's thread
    /// The registered scene types, in order.
    public let scenes: [any Scene.Type]

    /// The registry of `scenes`; throws when two share an id or an id breaks `NameRule`.
    public init(_ scenes: [any Scene.Type]) throws(SceneRegistryError) {
        var seen: Set<String> = []
        for scene in scenes {
            let id = scene.info.id
            guard NameRule.isValid(id) else { throw .badID(id) }
            guard seen.insert(id).inserted else { throw .duplicateID(id) }
        }
        self.scenes = scenes
    }

    /// The scene type with this id, if registered.
    public func scene(id: String) -> (any Scene.Type)? {
        scenes.first { $0.info.id == id }
    }

    /// The scenes that take the admin command `name`, in order.
    public func scenes(taking command: String) -> [any Scene.Type] {
        scenes.filter { $0.commands.contains(command) }
    }

    /// Every scene's tap rules (`layercast_tap_refusals_total`'s rules), in order, each once.
    public var tapRules: [String] {
        var seen: Set<String> = []
        return scenes.flatMap { $0.tapRules }.filter { seen.insert($0).inserted }
    }
}

/// Why a list of scenes cannot be registered.
public enum SceneRegistryError: Error, Equatable, CustomStringConvertible {
    case duplicateID(String)
    case badID(String)

    public var description: String {
        switch self {
        case .duplicateID(let id): "two scenes have the id \"\(id)\": each scene's SceneInfo.id must be its own"
        case .badID(let id): "the scene id \"\(id)\" is not \(NameRule.description)"
        }
    }
}

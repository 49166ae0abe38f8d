import LayercastScenes

/// The scenes a service runs, in the order `/api/scenes` and the index list them. The hub, its
/// joins, commands and documents know only the scenes they were given here. Made once at start.
public struct SceneRegistry: @unchecked Sendable {  // metatypes: immutable, read on the hub's thread
    /// The registered scene types, in order.
    public let scenes: [any Scene.Type]

    /// The registry of `scenes`; throws when two share an id, an id breaks `NameRule`, an option
    /// name is malformed, or two options (of one scene or two) share a name.
    public init(_ scenes: [any Scene.Type]) throws(SceneRegistryError) {
        var seen: Set<String> = [], options: Set<String> = []
        for scene in scenes {
            let id = scene.info.id
            guard NameRule.isValid(id) else { throw .badID(id) }
            guard seen.insert(id).inserted else { throw .duplicateID(id) }
            for option in scene.options {
                guard SceneOption.isValidName(option.name) else { throw .badOption(scene: id, option.name) }
                guard options.insert(option.name).inserted else { throw .duplicateOption(scene: id, option.name) }
            }
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

    public var description: String {
        switch self {
        case .duplicateID(let id): "two scenes have the id \"\(id)\": each scene's SceneInfo.id must be its own"
        case .badID(let id): "the scene id \"\(id)\" is not \(NameRule.description)"
        case .badOption(let scene, let name):
            "the scene \"\(scene)\" has an option named \"\(name)\": an option's name is 1…48 lowercase letters, digits and inner '-', starting with a letter"
        case .duplicateOption(let scene, let name):
            "the scene \"\(scene)\" declares the option --\(name), which another option already has: each option's name must be its own"
        }
    }
}

import ArgumentParser
import LayercastHub
import LayercastSceneAPI

/// The registered scenes' own options on `layercast serve`'s command line and in its environment
/// (`SceneOption`): what `--help` says of them, and the values they give each scene.
struct SceneArguments {
    let registry: SceneRegistry

    /// Each scene's options by scene id: the command line's `--NAME VALUE`, `--NAME=VALUE` or
    /// `--NAME` (a flag) over `LAYERCAST_NAME` in `environment`, over the default. Throws a usage
    /// error for an argument that names no option, a missing or refused value, or options a scene
    /// refuses together.
    func values(_ arguments: [String], environment: [String: String]) throws(ValidationError) -> [String: SceneOptionValues] {
        var given: [String: [String: String]] = [:]  // scene id → option → text
        for scene in registry.scenes {
            for option in scene.options {
                if let text = environment[option.environmentName] { given[scene.info.id, default: [:]][option.name] = text }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw ValidationError("Unexpected argument '\(argument)'") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let (scene, option) = find(name) else { throw ValidationError("Unknown option '--\(name)'") }
            let text: String
            if let equals = body.firstIndex(of: "=") {
                text = String(body[body.index(after: equals)...])
            } else if option.kind == .flag {
                text = "1"
            } else {
                guard index < arguments.count else { throw ValidationError("Missing value for '--\(name) <\(option.valueName)>'") }
                text = arguments[index]
                index += 1
            }
            given[scene.info.id, default: [:]][option.name] = text
        }
        var values: [String: SceneOptionValues] = [:]
        for scene in registry.scenes {
            do throws(SceneOptionError) {
                values[scene.info.id] = try SceneOptionValues(for: scene, given[scene.info.id] ?? [:])
            } catch {
                throw ValidationError(error.description)
            }
        }
        return values
    }

    /// The first option of a scene that `ownNames` (serve's own options, without dashes) already
    /// has, as "the scene … option --… is one of serve's own"; nil when none is.
    func clash(with ownNames: Set<String>) -> String? {
        for scene in registry.scenes {
            for option in scene.options where ownNames.contains(option.name) {
                return "the scene \"\(scene.info.id)\" declares the option --\(option.name), which is one of layercast serve's own: rename it, e.g. --\(scene.info.id)-\(option.name)"
            }
        }
        return nil
    }

    /// The "SCENE OPTIONS" section of `layercast serve --help`, laid out as ArgumentParser lays out
    /// serve's own: each scene's options with their value, help, default and environment variable.
    var help: String {
        let scenes = registry.scenes.filter { !$0.options.isEmpty }
        guard !scenes.isEmpty else { return "" }
        var lines = ["SCENE OPTIONS (each also read from the environment variable in brackets):"]
        for scene in scenes {
            for option in scene.options {
                let value = option.kind == .flag ? "" : " <\(option.valueName)>"
                let fallback = option.kind == .flag ? "" : " (default: \(option.defaultValue.description))"
                let label = "  --\(option.name)\(value)"
                let words = "\(option.help)\(fallback) [\(option.environmentName)]"
                var text = Self.wrap(words, width: 80 - 26)
                if label.count <= 24 {
                    text[0] = label.padding(toLength: 26, withPad: " ", startingAt: 0) + text[0]
                } else {
                    lines.append(label)
                    text[0] = String(repeating: " ", count: 26) + text[0]
                }
                lines.append(contentsOf: text.enumerated().map { $0.offset == 0 ? $0.element : String(repeating: " ", count: 26) + $0.element })
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        return lines + [line]
    }

    private func find(_ name: String) -> (any Scene.Type, SceneOption)? {
        for scene in registry.scenes {
            if let option = scene.options.first(where: { $0.name == name }) { return (scene, option) }
        }
        return nil
    }
}

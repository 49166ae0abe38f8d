import ArgumentParser
import Foundation
import LayercastHub
import LayercastSceneAPI

/// The Layercast service as a library: the `main` of a binary that serves its own scenes.
///
/// ```swift
/// import Layercast
/// import LayercastScenes   // our scenes (SceneCatalog), product LayercastScenes
///
/// LayercastCommand.main(scenes: SceneCatalog.all + [CardFlipScene.self])
/// ```
///
/// The binary is then the whole `layercast` command tree — `serve`, `replay`, `ledger check|backup`,
/// `sample`, `loadtest` — with every flag, output and exit status of our own `layercast`
/// (docs/operations.md); `serve` runs the scenes given here and no others.
public enum LayercastCommand {
    /// Registers `scenes` (the order `/api/scenes` and the index list them in), parses the
    /// process's arguments (or `arguments`, without the program name) and runs the command they
    /// name, then exits the process: 0 when it succeeded, otherwise ArgumentParser's status for a
    /// usage error (64, also for a scene option's bad value) or the command's own. Two scenes with
    /// one id, an id outside the room name rule, a scene option named like another option, or a
    /// scene's resource image that cannot be read (missing, unreadable, over 1 MiB: its scene,
    /// id and path named), is written to standard error and exits with status 2 before anything runs.
    public static func main(scenes: [any Scene.Type], arguments: [String]? = nil) -> Never {
        let registry: SceneRegistry
        do {
            registry = try SceneRegistry(scenes)
        } catch {
            FileHandle.standardError.write(Data("layercast: \(error)\n".utf8))
            exit(2)
        }
        let sceneArguments = SceneArguments(registry: registry)
        if let clash = sceneArguments.clash(with: ServeCommand.ownOptionNames) {
            FileHandle.standardError.write(Data("layercast: \(clash)\n".utf8))
            exit(2)
        }
        do {
            var command = try RootCommand.parseAsRoot(arguments)
            if let serve = command as? ServeCommand {
                let options: [String: SceneOptionValues]
                do {
                    options = try sceneArguments.values(serve.sceneArguments, environment: ProcessInfo.processInfo.environment)
                } catch {
                    // as ArgumentParser words a usage error of serve's own options
                    let usage = RootCommand.usageString(for: ServeCommand.self)
                    FileHandle.standardError.write(Data("Error: \(error.message)\nUsage: \(usage)\n  See 'layercast serve --help' for more information.\n".utf8))
                    exit(ExitCode.validationFailure.rawValue)
                }
                try serve.run(scenes: registry, sceneOptions: options)
            } else if let replay = command as? ReplayCommand {
                try replay.run(scenes: registry)
            } else {
                try command.run()
            }
        } catch {
            let message = RootCommand.fullMessage(for: error)
            if RootCommand.exitCode(for: error) == .success, message == RootCommand.helpMessage(for: ServeCommand.self) {
                // serve's help, with the scenes' options after its own
                let scenes = sceneArguments.help
                FileHandle.standardOutput.write(Data((message + (scenes.isEmpty ? "" : "\n\n" + scenes) + "\n").utf8))
                exit(0)
            }
            RootCommand.exit(withError: error)
        }
        exit(0)
    }
}

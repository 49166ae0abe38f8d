import ArgumentParser
import Foundation
import LayercastHub
import LayercastScenes

/// The Layercast service as a library: the `main` of a binary that serves its own scenes.
///
/// ```swift
/// import Layercast
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
    /// usage error (64) or the command's own. Two scenes with one id, or an id outside the room
    /// name rule, is written to standard error and exits with status 2 before anything runs.
    public static func main(scenes: [any Scene.Type], arguments: [String]? = nil) -> Never {
        let registry: SceneRegistry
        do {
            registry = try SceneRegistry(scenes)
        } catch {
            FileHandle.standardError.write(Data("layercast: \(error)\n".utf8))
            exit(2)
        }
        do {
            var command = try RootCommand.parseAsRoot(arguments)
            if let serve = command as? ServeCommand {
                try serve.run(scenes: registry)
            } else {
                try command.run()
            }
        } catch {
            RootCommand.exit(withError: error)
        }
        exit(0)
    }
}

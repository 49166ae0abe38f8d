@testable import Layercast
import ArgumentParser
import LayercastHub
import LayercastScenes
import Testing

/// The scenes' options on `serve`'s command line and in its environment: the command line over
/// the environment over the default, and a usage error for anything else.
@Suite struct SceneArgumentsTests {
    let arguments = SceneArguments(registry: try! SceneRegistry(SceneCatalog.all))

    @Test func theCommandLineWinsOverTheEnvironment() throws {
        let values = try arguments.values(["--rain-every", "3", "--rain-screen=500x800", "--book-flat"],
                                          environment: ["LAYERCAST_RAIN_EVERY": "7", "LAYERCAST_RAIN_RESULTS": "2", "HOME": "/root"])
        let rain = RainOptions(values["rain"]!)
        #expect(rain.everySeconds == 3)
        #expect(rain.scene.resultsDuration == 2)
        #expect(rain.scene.size.width == 500)
        #expect(values["book"]!.flag("book-flat"))
        #expect(values["radar"] == SceneOptionValues(defaultsOf: RadarScene.self))
    }

    @Test func aFlagTakesATextAfterEqualsOrFromTheEnvironment() throws {
        #expect(try !arguments.values(["--book-flat=false"], environment: [:])["book"]!.flag("book-flat"))
        #expect(try arguments.values([], environment: ["LAYERCAST_BOOK_FLAT": "true"])["book"]!.flag("book-flat"))
    }

    @Test func anythingElseIsAUsageError() {
        for (given, message) in [
            (["--fsp", "3"], "Unknown option '--fsp'"),
            (["stray"], "Unexpected argument 'stray'"),
            (["--rain-every"], "Missing value for '--rain-every <seconds>'"),
            (["--rain-results", "4000"], "--rain-results must be a number in 0…3600"),
            (["--rain-min-coins", "100", "--rain-max-coins", "10"], "rain defaults: minCoins must be at most maxCoins (10)"),
        ] {
            let error = #expect(throws: ValidationError.self) { try arguments.values(given, environment: [:]) }
            #expect(error?.message == message)
        }
        let error = #expect(throws: ValidationError.self) { try arguments.values([], environment: ["LAYERCAST_RAIN_EVERY": "soon"]) }
        #expect(error?.message == "--rain-every must be a finite number")
    }

    @Test func serveKnowsItsOwnOptionsAndAClashIsNamed() {
        let own = ServeCommand.ownOptionNames
        #expect(own.isSuperset(of: ["port", "fps", "host", "ledger", "cluster", "workers", "permessage-deflate", "no-permessage-deflate", "help"]))
        #expect(own.isDisjoint(with: ["rain-every", "book-flat"]))
        #expect(arguments.clash(with: own) == nil)
        #expect(arguments.clash(with: ["book-flat"])
            == "the scene \"book\" declares the option --book-flat, which is one of layercast serve's own: rename it, e.g. --book-book-flat")
    }

    @Test func helpListsEveryOptionWithItsVariable() {
        let help = arguments.help
        for option in RainScene.options + BookScene.options {
            #expect(help.contains("--\(option.name)"))
            #expect(help.contains("[\(option.environmentName)]"))
        }
        #expect(help.contains("(default: 414x736)"))
    }
}

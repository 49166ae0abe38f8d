@testable import Layercast
import LayercastHub
import LayercastScenes
import Testing

/// `serve`'s one configuration: the defaults, under the environment's variables, under the options given.
@Suite struct ConfigurationTests {
    let registry = try! SceneRegistry(SceneCatalog.all)

    @Test func optionsOverrideTheEnvironmentWhichOverridesTheDefaults() throws {
        let plain = try ServeCommand.parse([]).resolvedConfiguration(scenes: registry, environment: [:])
        #expect((plain.hub.fps, plain.hub.maxParticles, plain.server.port, plain.ledger.directory, plain.ledger.queue) == (30, 2_000, 8080, "data", 256))
        #expect(plain.hub.adminToken == nil && plain.ledger.url == nil && plain.cluster.url == nil && plain.hub.dropFramesEvery == nil)
        #expect(plain.players.anonymousAllowed && plain.server.permessageDeflate && !plain.server.sharesPort)

        let environment = ["LAYERCAST_ADMIN_TOKEN": "admin-token-of-the-environment", "LAYERCAST_LEDGER": "memory:",
                           "LAYERCAST_TOKEN_SECRET": "token-secret-of-the-environment"]
        let fromEnvironment = try ServeCommand.parse([]).resolvedConfiguration(scenes: registry, environment: environment)
        #expect(fromEnvironment.hub.adminToken == "admin-token-of-the-environment" && fromEnvironment.ledger.url == "memory:")
        #expect(!fromEnvironment.players.anonymousAllowed)

        let given = try ServeCommand.parse(["--admin-token", "admin-token-of-the-command", "--fps", "60", "--drop-frames-every", "0",
                                            "--host-tap-rate", "5", "--no-permessage-deflate", "--allow-anonymous", "--node-id", "n1"])
            .resolvedConfiguration(scenes: registry, environment: environment)
        #expect(given.hub.adminToken == "admin-token-of-the-command" && given.hub.fps == 60 && given.hub.dropFramesEvery == nil)
        #expect(given.hub.addressLimits.tapsPerSecond == 5 && given.hub.addressLimits.connections == 256)
        #expect(!given.server.permessageDeflate && given.players.anonymousAllowed && given.hub.node == "n1")
    }

    @Test func validationNamesTheFlagToChange() {
        var configuration = Configuration(scenes: registry)
        #expect(throws: Never.self) { try configuration.validate() }
        configuration.hub.maxParticles = 100_001
        var error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.message == "--max-particles must be between 0 and 100000")
        configuration.hub.maxParticles = 0
        configuration.cluster.workers = 2
        error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.message == "--workers needs --cluster: the workers are nodes of one cluster")
    }
}

import ArgumentParser
import Foundation
import LayercastSceneAPI
import LayercastHub
import LayercastServer
import Logging

/// `layercast serve`: runs the service until SIGINT or SIGTERM (docs/protocol.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the browser client, the JSON API and the layercast.v1 WebSocket."
    )

    /// serve's own option names, without dashes, as its `--help` lists them.
    static var ownOptionNames: Set<String> {
        let text = helpMessage(columns: 10_000)
        let names = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "|" || $0 == "/" })
            .filter { $0.hasPrefix("--") }
            .map { String($0.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }) }
        return Set(names)
    }

    /// The defaults the options override, shown in their help as ArgumentParser shows a default.
    private static let defaults = Configuration.defaults

    /// `text`, followed by an option's default as ArgumentParser words it.
    private static func help(_ text: String, default value: Any) -> ArgumentHelp {
        ArgumentHelp("\(text) (default: \(value))")
    }

    @Option(help: ServeCommand.help("Address to listen on.", default: ServeCommand.defaults.server.host))
    var host: String?

    @Option(help: ServeCommand.help("TCP port; 0 picks a free port.", default: ServeCommand.defaults.server.port))
    var port: Int?

    @Option(name: .customLong("public"), help: ServeCommand.help("Directory of the browser client, served as static files.", default: ServeCommand.defaults.server.publicDirectory))
    var publicDirectory: String?

    @Option(help: ServeCommand.help("Frames per second of every room (1–120).", default: ServeCommand.defaults.hub.fps))
    var fps: Int?

    @Option(help: ServeCommand.help("Most WebSocket clients at once.", default: ServeCommand.defaults.hub.maxClients))
    var maxClients: Int?

    @Option(help: ServeCommand.help("Most rooms joins may open (the admin API may open more).", default: ServeCommand.defaults.hub.maxRooms))
    var maxRooms: Int?

    @Option(help: "An origin that may connect and frame the pages besides the page's own and localhost (repeatable; * for any).")
    var allowOrigin: [String] = []

    @Option(help: ServeCommand.help("Most particle records one room's emitters hold (the oldest are evicted).", default: ServeCommand.defaults.hub.maxParticles))
    var maxParticles: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: ServeCommand.help("Seconds an empty room lives before it is removed.", default: ServeCommand.defaults.hub.roomIdleSeconds))
    var roomIdle: Double?

    @Option(help: ServeCommand.help("Seconds a client may go without taking a frame before it is dropped.", default: ServeCommand.defaults.hub.stallTimeoutSeconds))
    var stallTimeout: Double?

    @Option(help: ServeCommand.help("Seconds a POST body may take to arrive whole; a slower one gets 408 and is closed.", default: ServeCommand.defaults.server.bodyTimeoutSeconds))
    var bodyTimeout: Double?

    @Option(help: ServeCommand.help("Seconds a request head may take to arrive whole from its first byte, however slowly it drips; a slower one gets 408 and is closed.",
                       default: ServeCommand.defaults.server.headTimeoutSeconds))
    var headTimeout: Double?

    @Option(help: ServeCommand.help("Directory of the award ledger (layercast.sqlite, unless --ledger says otherwise) and of player-id.key, created when missing.",
                       default: ServeCommand.defaults.ledger.directory))
    var data: String?

    @Option(help: ArgumentHelp("The award ledger in PostgreSQL, postgres://USER@HOST:PORT/DB (or LAYERCAST_LEDGER), or memory: for tests and demos (every award is lost when the server stops); default: SQLite under --data.", valueName: "url"))
    var ledger: String?

    @Option(help: ServeCommand.help("Seconds a ledger call (an award's commit, a rain's start or end, a read) may take before it is answered ledger_unavailable; at most 2, so a tap is always answered within 2 s.",
                       default: ServeCommand.defaults.ledger.deadline))
    var ledgerDeadline: Double?

    @Option(help: ServeCommand.help("Ledger calls that may wait for the ledger's thread; more are refused at once with ledger_unavailable.", default: ServeCommand.defaults.ledger.queue))
    var ledgerQueue: Int?

    @Option(help: ArgumentHelp("Bearer token of the admin API (or LAYERCAST_ADMIN_TOKEN); without one the admin API is off.", valueName: "token"))
    var adminToken: String?

    @Option(help: ArgumentHelp("Secret of the player tokens the embedding app signs (or LAYERCAST_TOKEN_SECRET).", valueName: "secret"))
    var tokenSecret: String?

    @Flag(help: "Let players join with an anonymous id even when --token-secret is given (the default without one).")
    var allowAnonymous = false

    @Option(help: ArgumentHelp("Key of public player ids (or LAYERCAST_PLAYER_ID_SECRET); default: kept in <data>/player-id.key. Every node of a cluster needs the same.", valueName: "secret"))
    var playerIDSecret: String?

    @Flag(help: "Show token players by their raw sub in events, leaderboards and the API instead of a public id.")
    var showTokenSubjects = false

    @Option(help: ArgumentHelp("A proxy whose X-Forwarded-For names the client, as an address or CIDR (repeatable), e.g. 127.0.0.1/32.", valueName: "cidr"))
    var trustProxy: [String] = []

    @Option(help: ServeCommand.help("WebSocket connections one client address may hold at once.", default: ServeCommand.defaults.hub.addressLimits.connections))
    var hostConnections: Int?

    @Option(help: ServeCommand.help("Anonymous player joins one client address may make per minute.", default: ServeCommand.defaults.hub.addressLimits.anonymousJoinsPerMinute))
    var hostAnonymousJoins: Int?

    @Option(help: ServeCommand.help("Taps per second one client address may make over all its players.", default: ServeCommand.defaults.hub.addressLimits.tapsPerSecond))
    var hostTapRate: Double?

    @Option(help: ServeCommand.help("For testing `layercast loadtest` only: do not send frames whose number is a multiple of N, so every client sees gaps (0: off).",
                       default: ServeCommand.defaults.hub.dropFramesEvery ?? 0))
    var dropFramesEvery: Int?

    @Flag(inversion: .prefixedNo, help: "Take permessage-deflate from clients that offer it: each message is compressed once for all of them (docs/protocol.md, Compression).")
    var permessageDeflate = ServeCommand.defaults.server.permessageDeflate

    @Option(help: ArgumentHelp("Join the cluster on this Redis, redis://HOST:PORT[/DB] (or LAYERCAST_CLUSTER): any node serves any room (docs/cluster.md).", valueName: "url"))
    var cluster: String?

    @Option(help: ArgumentHelp("This node's id in the cluster and /healthz: letters, digits, . _ - (default: host name and process id).", valueName: "id"))
    var nodeID: String?

    @Option(help: ServeCommand.help("Processes serving this port together (SO_REUSEPORT), each a node of the --cluster.", default: ServeCommand.defaults.cluster.workers))
    var workers: Int?

    /// What serve's own options leave: the scenes' options (`SceneArguments`), read at start.
    @Argument(parsing: .allUnrecognized, help: .private)
    var sceneArguments: [String] = []

    func validate() throws {
        do throws(ConfigurationError) {
            try resolvedConfiguration(scenes: Self.defaults.hub.scenes, environment: ProcessInfo.processInfo.environment).validate()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The defaults serving `scenes`, overridden by `environment`'s LAYERCAST_ADMIN_TOKEN,
    /// LAYERCAST_TOKEN_SECRET, LAYERCAST_PLAYER_ID_SECRET, LAYERCAST_LEDGER and LAYERCAST_CLUSTER,
    /// and those by the options given.
    func resolvedConfiguration(scenes: SceneRegistry, environment: [String: String]) -> Configuration {
        var configuration = Configuration(scenes: scenes)
        // (fields that are optionals themselves are overridden with ??: `override` would take a nil for a value)
        func override<Value>(_ value: inout Value, _ given: Value?) { if let given { value = given } }
        override(&configuration.server.host, host)
        override(&configuration.server.port, port)
        override(&configuration.server.publicDirectory, publicDirectory)
        override(&configuration.server.bodyTimeoutSeconds, bodyTimeout)
        override(&configuration.server.headTimeoutSeconds, headTimeout)
        if !allowOrigin.isEmpty { configuration.server.allowedOrigins = allowOrigin }
        if !trustProxy.isEmpty { configuration.server.trustedProxies = trustProxy }
        configuration.server.permessageDeflate = permessageDeflate
        override(&configuration.hub.fps, fps)
        override(&configuration.hub.maxClients, maxClients)
        override(&configuration.hub.maxRooms, maxRooms)
        override(&configuration.hub.maxParticles, maxParticles)
        override(&configuration.hub.roomIdleSeconds, roomIdle)
        override(&configuration.hub.stallTimeoutSeconds, stallTimeout)
        override(&configuration.hub.addressLimits.connections, hostConnections)
        override(&configuration.hub.addressLimits.anonymousJoinsPerMinute, hostAnonymousJoins)
        override(&configuration.hub.addressLimits.tapsPerSecond, hostTapRate)
        if let dropFramesEvery { configuration.hub.dropFramesEvery = dropFramesEvery == 0 ? nil : dropFramesEvery }
        configuration.hub.adminToken = adminToken ?? environment["LAYERCAST_ADMIN_TOKEN"] ?? configuration.hub.adminToken
        override(&configuration.ledger.directory, data)
        configuration.ledger.url = ledger ?? environment["LAYERCAST_LEDGER"] ?? configuration.ledger.url
        override(&configuration.ledger.deadline, ledgerDeadline)
        override(&configuration.ledger.queue, ledgerQueue)
        configuration.players.tokenSecret = tokenSecret ?? environment["LAYERCAST_TOKEN_SECRET"] ?? configuration.players.tokenSecret
        configuration.players.idSecret = playerIDSecret ?? environment["LAYERCAST_PLAYER_ID_SECRET"] ?? configuration.players.idSecret
        if allowAnonymous { configuration.players.allowAnonymous = true }
        if showTokenSubjects { configuration.players.showTokenSubjects = true }
        configuration.cluster.url = cluster ?? environment["LAYERCAST_CLUSTER"] ?? configuration.cluster.url
        configuration.cluster.nodeID = nodeID ?? configuration.cluster.nodeID
        override(&configuration.cluster.workers, workers)
        // serve names every process, in a cluster or not; a worker shares its port with the others
        configuration.hub.node = configuration.cluster.node
        configuration.server.sharesPort = configuration.cluster.url != nil && environment[WorkerProcesses.marker] != nil
        return configuration
    }

    /// Runs the service with `scenes` and their options until SIGINT or SIGTERM (`LayercastCommand.main(scenes:)`
    /// calls it in place of ArgumentParser's `run()`).
    func run(scenes: SceneRegistry, sceneOptions: [String: SceneOptionValues]) throws {
        StopSignals.block()  // before any other thread starts, so that no stop signal is lost
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = resolvedConfiguration(scenes: scenes, environment: ProcessInfo.processInfo.environment)
        configuration.hub.sceneOptions = sceneOptions
        if configuration.cluster.workers > 1 { try WorkerProcesses.run(count: configuration.cluster.workers, node: configuration.hub.node) }

        let application: Application
        do throws(ApplicationError) {
            application = try Application.serving(configuration, logger: Logger(label: "layercast"))
        } catch {
            FileHandle.standardError.write(Data("layercast serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
        guard let server = application.server else { return }
        if let cluster = application.cluster {
            FileHandle.standardOutput.write(Data("layercast: node \(configuration.hub.node) of the cluster at \(cluster.address)\n".utf8))
        }
        StopSignals.stop(server)
        FileHandle.standardOutput.write(Data("layercast: serving \(server.url)\n".utf8))
        application.run()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

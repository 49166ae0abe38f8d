import ArgumentParser
import Foundation
import LayercastCluster
import LayercastLedger
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

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free port.")
    var port = 8080

    @Option(name: .customLong("public"), help: "Directory of the browser client, served as static files.")
    var publicDirectory = "public"

    @Option(help: "Frames per second of every room (1–120).")
    var fps = 30

    @Option(help: "Most WebSocket clients at once.")
    var maxClients = 1000

    @Option(help: "Most rooms joins may open (the admin API may open more).")
    var maxRooms = 100

    @Option(help: "An origin that may connect and frame the pages besides the page's own and localhost (repeatable; * for any).")
    var allowOrigin: [String] = []

    @Option(help: "Most particle records one room's emitters hold (the oldest are evicted).")
    var maxParticles = 2_000

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Seconds an empty room lives before it is removed.")
    var roomIdle: Double = 30

    @Option(help: "Seconds a client may go without taking a frame before it is dropped.")
    var stallTimeout: Double = 10

    @Option(help: "Seconds a POST body may take to arrive whole; a slower one gets 408 and is closed.")
    var bodyTimeout: Double = 10

    @Option(help: "Seconds a request head may take to arrive whole from its first byte, however slowly it drips; a slower one gets 408 and is closed.")
    var headTimeout: Double = 10

    @Option(help: "Directory of the award ledger (layercast.sqlite, unless --ledger says otherwise) and of player-id.key, created when missing.")
    var data = "data"

    @Option(help: ArgumentHelp("The award ledger in PostgreSQL, postgres://USER@HOST:PORT/DB (or LAYERCAST_LEDGER), or memory: for tests and demos (every award is lost when the server stops); default: SQLite under --data.", valueName: "url"))
    var ledger: String?

    @Option(help: "Seconds a ledger call (an award's commit, a rain's start or end, a read) may take before it is answered ledger_unavailable; at most 2, so a tap is always answered within 2 s.")
    var ledgerDeadline: Double = LedgerServices.defaultDeadline

    @Option(help: "Ledger calls that may wait for the ledger's thread; more are refused at once with ledger_unavailable.")
    var ledgerQueue = 256

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

    @Option(help: "WebSocket connections one client address may hold at once.")
    var hostConnections = AddressLimitRules().connections

    @Option(help: "Anonymous player joins one client address may make per minute.")
    var hostAnonymousJoins = AddressLimitRules().anonymousJoinsPerMinute

    @Option(help: "Taps per second one client address may make over all its players.")
    var hostTapRate = AddressLimitRules().tapsPerSecond

    @Option(help: "For testing `layercast loadtest` only: do not send frames whose number is a multiple of N, so every client sees gaps (0: off).")
    var dropFramesEvery = 0

    @Flag(inversion: .prefixedNo, help: "Take permessage-deflate from clients that offer it: each message is compressed once for all of them (docs/protocol.md, Compression).")
    var permessageDeflate = true

    @Option(help: ArgumentHelp("Join the cluster on this Redis, redis://HOST:PORT[/DB] (or LAYERCAST_CLUSTER): any node serves any room (docs/cluster.md).", valueName: "url"))
    var cluster: String?

    @Option(help: ArgumentHelp("This node's id in the cluster and /healthz: letters, digits, . _ - (default: host name and process id).", valueName: "id"))
    var nodeID: String?

    @Option(help: "Processes serving this port together (SO_REUSEPORT), each a node of the --cluster.")
    var workers = 1

    /// What serve's own options leave: the scenes' options (`SceneArguments`), read at start.
    @Argument(parsing: .allUnrecognized, help: .private)
    var sceneArguments: [String] = []

    func validate() throws {
        guard dropFramesEvery == 0 || dropFramesEvery >= 2 else { throw ValidationError("--drop-frames-every must be 0 (off) or at least 2") }
        guard (1...120).contains(fps) else { throw ValidationError("--fps must be between 1 and 120") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1") }
        guard maxRooms >= 1 else { throw ValidationError("--max-rooms must be at least 1") }
        guard (0...100_000).contains(maxParticles) else { throw ValidationError("--max-particles must be between 0 and 100000") }
        guard roomIdle.isFinite, roomIdle >= 0 else { throw ValidationError("--room-idle must be a finite number ≥ 0") }
        guard stallTimeout.isFinite, stallTimeout > 0 else { throw ValidationError("--stall-timeout must be a finite number > 0") }
        guard bodyTimeout.isFinite, bodyTimeout > 0, bodyTimeout <= 3600 else { throw ValidationError("--body-timeout must be above 0 and at most 3600 seconds") }
        guard headTimeout.isFinite, headTimeout > 0, headTimeout <= 3600 else { throw ValidationError("--head-timeout must be above 0 and at most 3600 seconds") }
        guard hostConnections >= 1, hostAnonymousJoins >= 1, hostTapRate.isFinite, hostTapRate >= 1 else {
            throw ValidationError("--host-connections, --host-anonymous-joins and --host-tap-rate must be at least 1")
        }
        if let url = resolvedCluster {
            do throws(ClusterError) { _ = try RedisAddress(url) } catch { throw ValidationError("--cluster: \(error.message)") }
        }
        if let nodeID, !Self.isNodeID(nodeID) { throw ValidationError("--node-id must be 1…64 letters, digits, '.', '_' or '-'") }
        guard (1...64).contains(workers) else { throw ValidationError("--workers must be between 1 and 64") }
        if workers > 1 {
            guard resolvedCluster != nil else { throw ValidationError("--workers needs --cluster: the workers are nodes of one cluster") }
            guard port != 0 else { throw ValidationError("--workers needs a fixed --port (they share it)") }
        }
        guard ledgerDeadline.isFinite, ledgerDeadline >= 0.05, ledgerDeadline <= 2 else {
            throw ValidationError("--ledger-deadline must be between 0.05 and 2 seconds")
        }
        guard (1...100_000).contains(ledgerQueue) else { throw ValidationError("--ledger-queue must be between 1 and 100000") }
        let location: LedgerLocation
        do throws(LedgerError) {
            location = try ledgerLocation
        } catch {
            throw ValidationError("--ledger: \(error.message)")
        }
        if location == .memory, resolvedCluster != nil {
            throw ValidationError("--ledger memory: cannot serve a cluster: its nodes share one ledger, and a memory ledger is one process's own")
        }
        for (name, value) in [("--admin-token", resolvedAdminToken), ("--token-secret", resolvedTokenSecret),
                              ("--player-id-secret", resolvedPlayerIDSecret)] {
            if let value, value.utf8.count < 16 { throw ValidationError("\(name) must be at least 16 characters") }
        }
    }

    private var resolvedAdminToken: String? { adminToken ?? ProcessInfo.processInfo.environment["LAYERCAST_ADMIN_TOKEN"] }
    private var resolvedTokenSecret: String? { tokenSecret ?? ProcessInfo.processInfo.environment["LAYERCAST_TOKEN_SECRET"] }
    private var ledgerLocation: LedgerLocation {
        get throws(LedgerError) { try LedgerOptions.location(ledger: ledger, data: data) }
    }
    private var resolvedCluster: String? { cluster ?? ProcessInfo.processInfo.environment["LAYERCAST_CLUSTER"] }
    /// This node's id: `--node-id`, or the host name and process id.
    private var resolvedNodeID: String {
        if let nodeID { return nodeID }
        let host = ProcessInfo.processInfo.hostName.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(40)
        return "\(host.isEmpty ? "node" : String(host))-\(getpid())"
    }

    static func isNodeID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 46 || c == 95 || c == 45
        }
    }
    private var resolvedPlayerIDSecret: String? { playerIDSecret ?? ProcessInfo.processInfo.environment["LAYERCAST_PLAYER_ID_SECRET"] }

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
        var configuration = ServerConfiguration(scenes: scenes)
        configuration.host = host
        configuration.port = port
        configuration.publicDirectory = publicDirectory
        configuration.fps = fps
        configuration.maxClients = maxClients
        configuration.maxRooms = maxRooms
        configuration.allowedOrigins = allowOrigin
        configuration.maxParticles = maxParticles
        configuration.roomIdleSeconds = roomIdle
        configuration.stallTimeoutSeconds = stallTimeout
        configuration.bodyTimeoutSeconds = bodyTimeout
        configuration.headTimeoutSeconds = headTimeout
        configuration.dataDirectory = data
        configuration.ledger = try ledgerLocation
        configuration.ledgerDeadline = ledgerDeadline
        configuration.ledgerQueue = ledgerQueue
        configuration.adminToken = resolvedAdminToken
        configuration.tokenSecret = resolvedTokenSecret
        configuration.allowAnonymous = allowAnonymous ? true : nil
        configuration.playerIDSecret = resolvedPlayerIDSecret
        configuration.showTokenSubjects = showTokenSubjects
        configuration.trustedProxies = trustProxy
        configuration.addressLimits.connections = hostConnections
        configuration.addressLimits.anonymousJoinsPerMinute = hostAnonymousJoins
        configuration.addressLimits.tapsPerSecond = hostTapRate
        configuration.sceneOptions = sceneOptions
        configuration.dropFramesEvery = dropFramesEvery > 0 ? dropFramesEvery : nil
        configuration.permessageDeflate = permessageDeflate

        configuration.node = resolvedNodeID
        if workers > 1 { try WorkerProcesses.run(count: workers, node: resolvedNodeID) }

        let logger = Logger(label: "layercast")
        var address: RedisAddress?
        if let url = resolvedCluster {
            do throws(ClusterError) {
                let redis = try RedisAddress(url)
                address = redis
                configuration.firstClientNumber = try ClusterNode.clientRange(at: redis)
                configuration.ledgerRole = .clusterNode
                configuration.sharesPort = ProcessInfo.processInfo.environment[WorkerProcesses.marker] != nil
            } catch {
                FileHandle.standardError.write(Data("layercast serve: --cluster: \(error.message)\n".utf8))
                throw ExitCode(2)
            }
        }
        let server: Server
        do {
            server = try Server(configuration: configuration, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("layercast serve: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var node: ClusterNode?
        if let address {
            let fingerprint = server.playerIDFingerprint
            do throws(ClusterError) {
                try ClusterNode.agreeOnKey(at: address, node: configuration.node, fingerprint: fingerprint)
                try ClusterNode.agreeOnScenes(at: address, node: configuration.node, registry: configuration.scenes)
            } catch {
                FileHandle.standardError.write(Data("layercast serve: --cluster: \(error.message)\n".utf8))
                throw ExitCode(2)
            }
            let cluster = ClusterNode(node: configuration.node, address: address, hub: server.hub, keyFingerprint: fingerprint,
                                      logger: logger) { [server] in
                server.cancelService()
            }
            server.hub.cluster = cluster
            server.onServiceWake = { cluster.handleEvents() }
            cluster.start()
            node = cluster
            FileHandle.standardOutput.write(Data("layercast: node \(configuration.node) of the cluster at \(address)\n".utf8))
        }
        StopSignals.stop(server)
        FileHandle.standardOutput.write(Data("layercast: serving \(server.url)\n".utf8))
        server.run()
        node?.stop()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

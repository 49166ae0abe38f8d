import Foundation
import LayercastCluster
import LayercastEngine
import LayercastHub
import LayercastIdentity
import LayercastLedger
import LayercastSceneAPI
import LayercastServer
import LayercastUIKit
import Logging

/// The service assembled from a `Configuration`, in order: the ledger (opened, locked, its
/// interrupted rounds recovered), the key of public player ids and the identities, the hub over
/// a transport, the HTTP routes and the cluster; `run()` serves until a stop and then stops them
/// in the reverse order. `serving(_:logger:)` puts it on the libwebsockets `Server`.
final class Application {
    let configuration: Configuration
    let logger: Logger
    /// Who players are: tokens, anonymous ids and the key of their public ids.
    let identities: IdentityPolicy
    /// The ledger's calls, on its own thread (inline for a memory ledger).
    let ledger: LedgerServices
    /// Rooms, clients and their rules, over the transport.
    let hub: Hub
    /// The libwebsockets transport; nil when assembled over another one (tests).
    private(set) var server: Server?
    /// This process's node of the cluster, if it is one.
    private(set) var cluster: ClusterNode?

    /// Opens the ledger and makes the identities and the hub over `transport`; `wake` is called
    /// from the ledger's thread when an answer waits for the transport's thread. Throws when the
    /// data directory, the ledger or the player-id key is unusable.
    init(configuration: Configuration, transport: any HubTransport, logger: Logger,
         wake: @escaping @Sendable () -> Void) throws(ServerError) {
        self.configuration = configuration
        self.logger = logger
        // A sole writer records every round still running as interrupted by its last stop; in a
        // cluster, the node that takes a room over ends that room's running rounds instead.
        let role: LedgerRole = configuration.cluster.url == nil ? .soleWriter : .clusterNode
        let opened = try Self.openLedger(configuration.ledger, role: role, logger: logger)
        let secret: [UInt8]
        if let given = configuration.players.idSecret {
            secret = Array(given.utf8)
        } else {
            secret = try PlayerIDKey.load(ledger: opened, directory: configuration.ledger.directory)
        }
        let players = configuration.players
        identities = IdentityPolicy(tokenSecret: players.tokenSecret, allowAnonymous: players.anonymousAllowed,
                                    pseudonyms: PlayerPseudonyms(secret: secret, showsTokenSubjects: players.showTokenSubjects))
        // From here on the ledger is its thread's (a memory ledger's calls run inline).
        let calls = opened is MemoryLedger ? LedgerThread(inline: opened)
            : LedgerThread(opened, capacity: configuration.ledger.queue, wake: wake)
        ledger = LedgerServices(calls, deadline: configuration.ledger.deadline, logger: logger)
        hub = Hub(configuration: configuration.hub, transport: transport, identities: identities, ledger: ledger,
                  services: SceneServices(awarding: ledger, rounds: ledger, logger: logger), logger: logger)
        Self.reportRefusals(to: logger)
    }

    /// The application on a libwebsockets `Server` listening as `configuration.server` says, and,
    /// with `configuration.cluster.url`, a started node of that cluster.
    static func serving(_ configuration: Configuration, logger: Logger) throws(ApplicationError) -> Application {
        var configuration = configuration
        var address: RedisAddress?
        if let url = configuration.cluster.url {
            do throws(ClusterError) {
                let redis = try RedisAddress(url)
                configuration.server.firstClientNumber = try ClusterNode.clientRange(at: redis)
                address = redis
            } catch {
                throw .cluster(error)
            }
        }
        let application: Application
        do throws(ServerError) {
            let server = try Server(configuration: configuration.server, scenes: configuration.hub.scenes, logger: logger)
            application = try Application(configuration: configuration, transport: server, logger: logger) { [weak server] in
                server?.cancelService()
            }
            try server.listen(hub: application.hub, identities: application.identities)
            application.server = server
        } catch {
            throw .server(error)
        }
        if let address {
            do throws(ClusterError) { try application.join(address) } catch { throw .cluster(error) }
        }
        return application
    }

    /// Agrees with the cluster at `address` on the key and the scenes, then starts this node in it.
    private func join(_ address: RedisAddress) throws(ClusterError) {
        guard let server else { return }
        let node = configuration.hub.node, fingerprint = identities.keyFingerprint
        try ClusterNode.agreeOnKey(at: address, node: node, fingerprint: fingerprint)
        try ClusterNode.agreeOnScenes(at: address, node: node, registry: configuration.hub.scenes)
        let cluster = ClusterNode(node: node, address: address, hub: hub, keyFingerprint: fingerprint, logger: logger) { [server] in
            server.cancelService()
        }
        hub.cluster = cluster
        server.onServiceWake = { cluster.handleEvents() }
        cluster.start()
        self.cluster = cluster
    }

    /// Serves until the server is asked to stop, then closes every WebSocket, writes what the stop
    /// recorded (a running round interrupted) to the ledger and leaves the cluster.
    func run() {
        guard let server else { return }
        server.run()
        ledger.stop(waiting: 5)
        logger.info("stopped")
        cluster?.stop()
    }

    /// The ledger of `settings`, opened and locked as `role`; a sole writer first marks the rounds
    /// its last stop left running as interrupted. The data directory is made first: with SQLite
    /// the ledger lives there, and with any ledger the player-id key may.
    private static func openLedger(_ settings: Configuration.Ledger, role: LedgerRole, logger: Logger) throws(ServerError) -> any Ledger {
        try DataDirectory.create(settings.directory)
        let location: LedgerLocation
        do throws(LedgerError) { location = try settings.location } catch { throw .ledger("--ledger: \(error.message)") }
        do {
            let ledger = try location.open()
            try ledger.lock(role)
            let interrupted = role == .soleWriter ? try ledger.recoverInterrupted(now: Date()) : []
            if !interrupted.isEmpty { logger.warning("rounds interrupted by the last stop", metadata: ["rounds": "\(interrupted)"]) }
            return ledger
        } catch where error.code == .inUse {
            let advice = role == .soleWriter
                ? "a node started without --cluster must be the ledger's only one, since it ends the rounds (rains) it finds running: stop the other process, or run every node with --cluster"
                : "stop that node, or restart it with --cluster, before starting cluster nodes on its ledger"
            throw .ledger("\(error.message): \(advice)")
        } catch {
            throw .ledger("cannot open the ledger in \(location): \(error.message)")
        }
    }

    /// Logs what the engine and UIKit refuse of a scene's code, once per key path or call: a
    /// release build runs on past an animation the engine cannot run, or a NaN frame.
    private static func reportRefusals(to logger: Logger) {
        CALayer.unsupportedAnimations.report = { [logger] keyPath, message in
            logger.warning("refused an animation the engine cannot run (layercast_animations_refused_total)",
                           metadata: ["keyPath": "\(keyPath)", "reason": "\(message)"])
        }
        UIKitErrors.shared.report = { [logger] error in
            logger.warning("refused a UIKit call", metadata: ["call": "\(error.call)", "reason": "\(error.message)"])
        }
    }
}

import Foundation
import LayercastCluster
import LayercastHub
import LayercastLedger
import LayercastServer

/// Everything `layercast serve` can be told, in one value: the hub's part, the transport's, the
/// ledger's, the players' and the cluster's. Each default is written once, in its part; flags and
/// environment variables only override it (`ServeCommand.resolvedConfiguration`), and `validate()` is the
/// one place its values are checked. `Application` is assembled from it.
struct Configuration: Sendable {
    /// Rooms, clients and their limits (`--fps`, `--max-rooms`, `--admin-token` …).
    var hub: HubConfiguration
    /// The libwebsockets transport (`--host`, `--port`, `--public`, timeouts, proxies …).
    var server = ServerConfiguration()
    /// The award ledger (`--data`, `--ledger`, `--ledger-deadline`, `--ledger-queue`).
    var ledger = Ledger()
    /// Who may play and how players are shown (`--token-secret`, `--player-id-secret` …).
    var players = Players()
    /// The cluster this process is a node of, if any (`--cluster`, `--node-id`, `--workers`).
    var cluster = Cluster()

    /// The defaults, serving `scenes`.
    init(scenes: SceneRegistry) {
        hub = HubConfiguration(scenes: scenes)
    }

    /// The defaults of every part, for the flags' help (no scenes: `SceneArguments` has theirs).
    static let defaults = Configuration(scenes: try! SceneRegistry([]))  // an empty registry is never refused

    /// Refuses a value out of its range or two that cannot go together, naming the flag a user
    /// would change; a configuration that passes starts unless the machine refuses it.
    func validate() throws(ConfigurationError) {
        if let every = hub.dropFramesEvery, every < 2 { throw "--drop-frames-every must be 0 (off) or at least 2" }
        guard (1...120).contains(hub.fps) else { throw "--fps must be between 1 and 120" }
        guard (0...65535).contains(server.port) else { throw "--port must be between 0 and 65535" }
        guard hub.maxClients >= 1 else { throw "--max-clients must be at least 1" }
        guard hub.maxRooms >= 1 else { throw "--max-rooms must be at least 1" }
        guard (0...100_000).contains(hub.maxParticles) else { throw "--max-particles must be between 0 and 100000" }
        guard hub.roomIdleSeconds.isFinite, hub.roomIdleSeconds >= 0 else { throw "--room-idle must be a finite number ≥ 0" }
        guard hub.stallTimeoutSeconds.isFinite, hub.stallTimeoutSeconds > 0 else { throw "--stall-timeout must be a finite number > 0" }
        for (name, seconds) in [("--body-timeout", server.bodyTimeoutSeconds), ("--head-timeout", server.headTimeoutSeconds)] {
            guard seconds.isFinite, seconds > 0, seconds <= 3600 else { throw "\(name) must be above 0 and at most 3600 seconds" }
        }
        let limits = hub.addressLimits
        guard limits.connections >= 1, limits.anonymousJoinsPerMinute >= 1, limits.tapsPerSecond.isFinite, limits.tapsPerSecond >= 1 else {
            throw "--host-connections, --host-anonymous-joins and --host-tap-rate must be at least 1"
        }
        if let url = cluster.url {
            do throws(ClusterError) { _ = try RedisAddress(url) } catch { throw "--cluster: \(error.message)" }
        }
        if let node = cluster.nodeID, !Cluster.isNodeID(node) { throw "--node-id must be 1…64 letters, digits, '.', '_' or '-'" }
        guard (1...64).contains(cluster.workers) else { throw "--workers must be between 1 and 64" }
        if cluster.workers > 1 {
            guard cluster.url != nil else { throw "--workers needs --cluster: the workers are nodes of one cluster" }
            guard server.port != 0 else { throw "--workers needs a fixed --port (they share it)" }
        }
        guard ledger.deadline.isFinite, ledger.deadline >= 0.05, ledger.deadline <= 2 else {
            throw "--ledger-deadline must be between 0.05 and 2 seconds"
        }
        guard (1...100_000).contains(ledger.queue) else { throw "--ledger-queue must be between 1 and 100000" }
        let location: LedgerLocation
        do throws(LedgerError) { location = try ledger.location } catch { throw "--ledger: \(error.message)" }
        if location == .memory, cluster.url != nil {
            throw "--ledger memory: cannot serve a cluster: its nodes share one ledger, and a memory ledger is one process's own"
        }
        for (name, value) in [("--admin-token", hub.adminToken), ("--token-secret", players.tokenSecret),
                              ("--player-id-secret", players.idSecret)] {
            if let value, value.utf8.count < 16 { throw "\(name) must be at least 16 characters" }
        }
    }
}

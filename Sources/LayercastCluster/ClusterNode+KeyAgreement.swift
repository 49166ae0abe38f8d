import Foundation

/// A starting node's check that it shares the cluster's key of public player ids: each live
/// node's heartbeat (`ClusterKeys.heartbeat`) holds its key's fingerprint.
extension ClusterNode {
    /// Throws, naming the node and the fix, when a live node of the cluster at `address` (other
    /// than `node`) has a key whose fingerprint is not `fingerprint`. Nodes from before heartbeats
    /// held fingerprints (whose heartbeat holds their node id) are not compared. Called once,
    /// before the node serves.
    public static func agreeOnKey(at address: RedisAddress, node: String, fingerprint: String) throws(ClusterError) {
        let connection = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1)
        guard case .array(let names) = try connection.command(["HKEYS", ClusterKeys.nodes]) else {
            throw ClusterError("HKEYS \(ClusterKeys.nodes) did not answer a list")
        }
        let others = names.compactMap { reply -> String? in
            guard case .string(let bytes) = reply else { return nil }
            let name = String(decoding: bytes, as: UTF8.self)
            return name == node ? nil : name
        }
        for other in others.sorted() {
            guard case .string(let bytes) = try connection.command(["GET", ClusterKeys.heartbeat(other)]) else { continue }  // not alive
            let theirs = String(decoding: bytes, as: UTF8.self)
            guard theirs != other, theirs != fingerprint else { continue }
            throw ClusterError("""
                node \(other) of the cluster has another key of public player ids (fingerprint \(theirs); this node's is \(fingerprint)), \
                so a player would have two public ids: start this node with the cluster's --player-id-secret (or \
                LAYERCAST_PLAYER_ID_SECRET), or without one on the cluster's ledger, which keeps the key
                """)
        }
    }
}

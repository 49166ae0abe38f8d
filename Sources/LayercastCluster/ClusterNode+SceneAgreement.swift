import LayercastHub

/// A starting node's check that the scenes it shares with the cluster's live nodes are the same
/// scenes (`ClusterKeys.scene`): a client relayed from another node is welcomed with the fields
/// that node published, so one scene id must mean one scene.
extension ClusterNode {
    /// Throws, naming the scene, the other node and the fix, when the cluster at `address` has a
    /// scene of `registry` published with other `welcome` fields (title, size, interactions, assets
    /// or words) by a live node other than `node`. Called once, before the node serves.
    public static func agreeOnScenes(at address: RedisAddress, node: String, registry: SceneRegistry) throws(ClusterError) {
        let connection = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1)
        let mine = NodeScenes(registry)
        for id in mine.fields.keys.sorted() {
            guard case .array(let published) = try connection.command(["HMGET", ClusterKeys.scene(id), "fingerprint", "node"]),
                  published.count == 2, let theirs = published[0].text, let other = published[1].text,
                  let own = mine.fingerprint(of: id), theirs != own, other != node,
                  try connection.command(["EXISTS", ClusterKeys.heartbeat(other)]) == .integer(1) else { continue }
            throw ClusterError("""
                node \(other) of the cluster runs another scene "\(id)" (fingerprint \(theirs); this node's is \(own)): \
                its title, size, interactions, assets or words differ, so clients relayed between the two would draw the \
                room wrongly. Run the same build of the scene on every node (stop the nodes of the other build first), or \
                give the changed scene another id
                """)
        }
    }
}

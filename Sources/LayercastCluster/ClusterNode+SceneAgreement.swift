import LayercastHub

/// A starting node's check that the scenes it shares with the cluster's live nodes are the same
/// scenes (`ClusterKeys.scenes`): a client relayed from another node is welcomed with that node's
/// fields of the scene, so one scene id must mean one scene.
extension ClusterNode {
    /// Throws, naming the scene, the other node and the fix, when a live node of the cluster at
    /// `address` (other than `node`) publishes a scene of `registry` with other `welcome` fields
    /// (title, size, interactions, assets or words). Called once, before the node serves.
    public static func agreeOnScenes(at address: RedisAddress, node: String, registry: SceneRegistry) throws(ClusterError) {
        let connection = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1)
        var live = ClusterScenes()
        live.read(try connection.command(readScenes))
        guard let conflict = live.conflict(with: NodeScenes(registry), node: node) else { return }
        throw ClusterError("""
            node \(conflict.node) of the cluster runs another scene "\(conflict.scene)" (fingerprint \(conflict.theirs); this \
            node's is \(conflict.mine)): its title, size, interactions, assets or words differ, so clients relayed between the \
            two would draw the room wrongly. Run the same build of the scene on every node (stop the nodes of the other build \
            first), or give the changed scene another id
            """)
    }
}

/// Every Redis key and channel of the cluster (docs/cluster.md, "Keys and channels"); `room` is
/// `scene/name`.
enum ClusterKeys {
    /// String: the node id of the room's origin, with the lease's expiry.
    static func lease(_ room: String) -> String { "layercast:lease:\(room)" }
    /// Channel: the room's frames and room events, from its origin (`ClusterMessage.frame`, `.event`).
    static func roomChannel(_ room: String) -> String { "layercast:room:\(room)" }
    /// The room whose channel `channel` is; nil for another channel.
    static func room(ofChannel channel: String) -> String? {
        let prefix = roomChannel("")
        return channel.hasPrefix(prefix) ? String(channel.dropFirst(prefix.count)) : nil
    }
    /// Channel: messages for one node (`ClusterMessage`'s other kinds): input to resolve, admin
    /// commands and their answers, full-frame requests, messages for one of its clients.
    static func nodeChannel(_ node: String) -> String { "layercast:node:\(node)" }
    /// Hash: node id → the node's report (its rooms and clients, `NodeReport`), rewritten each second.
    static let nodes = "layercast:nodes"
    /// Integer: incremented once by each starting node, which takes that range of client numbers.
    static let clientRanges = "layercast:client-ranges"

    /// Sets the lease when nobody holds it; answers the holder (this node when it won).
    static let acquireScript = """
        if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return ARGV[1] end
        return redis.call('GET', KEYS[1])
        """
    /// Extends the lease when this node holds it; answers the holder (nil when nobody does).
    static let renewScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        return holder
        """
    /// Deletes the lease when this node holds it.
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """
}

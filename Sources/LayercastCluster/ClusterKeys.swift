/// Every Redis key and channel of the cluster (docs/cluster.md, "Keys and channels"); `room` is
/// `scene/name`.
enum ClusterKeys {
    /// String: the node id of the room's origin, with the lease's expiry.
    static func lease(_ room: String) -> String { "layercast:lease:\(room)" }
    /// String: set by a live node for `ClusterTiming.heartbeatExpiry` at every tick of its link's
    /// timer (`ClusterTiming.period`); its absence says the node is dead, stopped or cut off from Redis.
    static func heartbeat(_ node: String) -> String { heartbeatPrefix + node }
    /// What `heartbeat` puts before a node id (the acquisition script builds the key from it).
    static let heartbeatPrefix = "layercast:alive:"
    /// String: the scenes a live node runs (`NodeScenes`), set with its heartbeat and living as long.
    static func scenes(_ node: String) -> String { scenesPrefix + node }
    /// What `scenes` puts before a node id (`liveScenesScript` builds the keys from it).
    static let scenesPrefix = "layercast:scenes:"
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
    /// Hash: node id → the node's report (its rooms and clients, `NodeReport`), rewritten each
    /// second by `reportScript` and read only for `GET /api/rooms`.
    static let nodes = "layercast:nodes"
    /// Sorted set: node id → when (Redis's clock, ms) it last wrote its report; `reportScript`
    /// deletes the reports of nodes that stopped writing.
    static let nodesWritten = "layercast:nodes:written"
    /// Hash: node id → "CLIENTS PLAYERS AT" of the room on that node (clients, distinct players,
    /// wall-clock ms when written), rewritten each second by every node in the room; read by the
    /// room's origin alone.
    static func audience(_ room: String) -> String { "layercast:audience:\(room)" }
    /// Integer: incremented once by each starting node, which takes that range of client numbers.
    static let clientRanges = "layercast:client-ranges"

    /// Writes node ARGV[1]'s report ARGV[2] to KEYS[1] (`nodes`) and when to KEYS[2]
    /// (`nodesWritten`), deletes the reports not rewritten for ARGV[3] ms, and makes both keys
    /// expire ARGV[3] ms after the last write. Answers how many reports it deleted.
    static let reportScript = """
        local t = redis.call('TIME')
        local now = t[1] * 1000 + math.floor(t[2] / 1000)
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        redis.call('ZADD', KEYS[2], now, ARGV[1])
        local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]))
        for _, node in ipairs(gone) do
          redis.call('HDEL', KEYS[1], node)
          redis.call('ZREM', KEYS[2], node)
        end
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        redis.call('PEXPIRE', KEYS[2], ARGV[3])
        return #gone
        """
    /// Sets the lease to this node (ARGV[1], for ARGV[2] ms) when nobody holds it or its holder's
    /// heartbeat key (ARGV[3] + holder) is gone: a dead origin's lease is taken without waiting
    /// for it to expire. Answers the holder (this node when it won).
    static let acquireScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder == ARGV[1] then return holder end
        if holder and redis.call('EXISTS', ARGV[3] .. holder) == 1 then return holder end
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        return ARGV[1]
        """
    /// Answers the lease's holder when its heartbeat key (ARGV[1] + holder) is there, else nil;
    /// changes nothing (a node that lacks the room's scene never holds its lease).
    static let locateScript = """
        local holder = redis.call('GET', KEYS[1])
        if holder and redis.call('EXISTS', ARGV[1] .. holder) == 1 then return holder end
        return false
        """
    /// For each node of the reports' hash (KEYS[1]) whose scenes key (ARGV[1] + node) is there:
    /// the node and the key's value, flat.
    static let liveScenesScript = """
        local found = {}
        for _, node in ipairs(redis.call('HKEYS', KEYS[1])) do
            local scenes = redis.call('GET', ARGV[1] .. node)
            if scenes then
                found[#found + 1] = node
                found[#found + 1] = scenes
            end
        end
        return found
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

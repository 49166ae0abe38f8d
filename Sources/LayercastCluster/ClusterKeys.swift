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
    /// Hash: scene `id`'s `fingerprint`, `fields` (its `welcome` fields' JSON) and `node` (the
    /// node that last refreshed it), the same for every node that runs that scene; written by
    /// `publishScenesScript`, expiring `reportExpiry` after the last refresh.
    static func scene(_ id: String) -> String { scenePrefix + id }
    /// What `scene` puts before a scene id (the scenes' scripts build the keys from it).
    static let scenePrefix = "layercast:scene:"
    /// Sorted set: node id → when (Redis's clock, ms) it last said it runs scene `id`; an entry
    /// counts while the node's heartbeat key is there, and is deleted `reportExpiry` after it was written.
    static func sceneNodes(_ id: String) -> String { sceneNodesPrefix + id }
    /// What `sceneNodes` puts before a scene id.
    static let sceneNodesPrefix = "layercast:scene-nodes:"
    /// Set: the ids of the scenes some node published within `reportExpiry`: the cluster's distinct scenes.
    static let sceneIDs = "layercast:scene-ids"
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
    /// Node ARGV[1] runs the scenes of the triples from ARGV[5] on (id, fingerprint, fields' JSON
    /// or empty): for each, it refreshes the scene's hash (prefix ARGV[3]) when that holds the same
    /// fingerprint, writes it when absent and the fields are given, notes the node in the scene's
    /// nodes (prefix ARGV[4]) at Redis's time, deletes the entries older than ARGV[2] ms, and adds
    /// the id to KEYS[1] (`sceneIDs`); every key written expires ARGV[2] ms later. Answers the ids
    /// whose hash is absent and whose fields were not given (send them again with their fields).
    static let publishScenesScript = """
        local t = redis.call('TIME')
        local now = t[1] * 1000 + math.floor(t[2] / 1000)
        local expiry = tonumber(ARGV[2])
        local missing = {}
        for i = 5, #ARGV, 3 do
          local id, fingerprint, fields = ARGV[i], ARGV[i + 1], ARGV[i + 2]
          local scene = ARGV[3] .. id
          local current = redis.call('HGET', scene, 'fingerprint')
          if current == fingerprint then
            redis.call('HSET', scene, 'node', ARGV[1])
            redis.call('PEXPIRE', scene, expiry)
          elseif not current and fields ~= '' then
            redis.call('HSET', scene, 'fingerprint', fingerprint, 'fields', fields, 'node', ARGV[1])
            redis.call('PEXPIRE', scene, expiry)
          elseif not current then
            missing[#missing + 1] = id
          end
          local nodes = ARGV[4] .. id
          redis.call('ZADD', nodes, now, ARGV[1])
          redis.call('ZREMRANGEBYSCORE', nodes, '-inf', now - expiry)
          redis.call('PEXPIRE', nodes, expiry)
          redis.call('SADD', KEYS[1], id)
        end
        redis.call('PEXPIRE', KEYS[1], expiry)
        return missing
        """
    /// The cluster's scenes (KEYS[1], `sceneIDs`) but those of the pairs from ARGV[5] on (id,
    /// fingerprint) whose fingerprint is `own`: for each, flat, its id, fingerprint, 1 when a node
    /// noted in its nodes (prefix ARGV[2]) within ARGV[4] ms has its heartbeat key (prefix ARGV[3])
    /// (else 0), and its fields' JSON, or empty when the pairs give the same fingerprint (the
    /// reader has them). Ids whose hash (prefix ARGV[1]) is gone are taken out of KEYS[1].
    static let readScenesScript = """
        local t = redis.call('TIME')
        local now = t[1] * 1000 + math.floor(t[2] / 1000)
        local since = now - tonumber(ARGV[4])
        local known = {}
        for i = 5, #ARGV, 2 do known[ARGV[i]] = ARGV[i + 1] end
        local found = {}
        for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
          if known[id] ~= 'own' then
            local fingerprint = redis.call('HGET', ARGV[1] .. id, 'fingerprint')
            if not fingerprint then
              redis.call('SREM', KEYS[1], id)
            else
              local live, offset = 0, 0
              while live == 0 do
                local node = redis.call('ZREVRANGEBYSCORE', ARGV[2] .. id, '+inf', since, 'LIMIT', offset, 1)[1]
                if not node then break end
                live = redis.call('EXISTS', ARGV[3] .. node)
                offset = offset + 1
              end
              local fields = ''
              if known[id] ~= fingerprint then fields = redis.call('HGET', ARGV[1] .. id, 'fields') or '' end
              found[#found + 1] = id
              found[#found + 1] = fingerprint
              found[#found + 1] = live
              found[#found + 1] = fields
            end
          end
        end
        return found
        """
    /// The nodes noted in a scene's nodes (KEYS[1]) within ARGV[2] ms whose heartbeat key (prefix
    /// ARGV[1]) is there: those a room of the scene may be asked of.
    static let sceneRunnersScript = """
        local t = redis.call('TIME')
        local now = t[1] * 1000 + math.floor(t[2] / 1000)
        local live = {}
        for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[2]), '+inf')) do
          if redis.call('EXISTS', ARGV[1] .. node) == 1 then live[#live + 1] = node end
        end
        return live
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

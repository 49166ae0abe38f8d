import LayercastJSON

/// The scenes the live nodes of the cluster run, as last read (`ClusterKeys.liveScenesScript`),
/// and what follows from them (docs/cluster.md, "Scenes"): the `welcome` fields of a scene this
/// node lacks, the node asked to run a room of it, and a scene two nodes publish differently.
struct ClusterScenes {
    /// Node → the scenes it publishes; every node whose scenes key was there when read.
    private(set) var nodes: [String: NodeScenes] = [:]

    /// Keeps the nodes of a `liveScenesScript` reply (node, value, node, value, …); an unreadable
    /// value is left out.
    mutating func read(_ reply: RedisReply) {
        guard case .array(let items) = reply else { return }
        var read: [String: NodeScenes] = [:]
        for pair in stride(from: 0, to: items.count - 1, by: 2) {
            guard let node = items[pair].text, case .string(let bytes) = items[pair + 1],
                  let value = bytes.withUnsafeBytes({ try? JSONValue.parse(bytes: $0) }), let scenes = NodeScenes(value) else { continue }
            read[node] = scenes
        }
        nodes = read
    }

    /// The nodes other than `node` that run scene `id`, in order.
    func nodes(running id: String, besides node: String) -> [String] {
        nodes.filter { $0.key != node && $0.value.fields[id] != nil }.keys.sorted()
    }

    /// Scene `id`'s `welcome` fields as the first node (in order) other than `node` that runs it
    /// published them; nil when none does.
    func fields(of id: String, besides node: String) -> JSONObject? {
        nodes(running: id, besides: node).first.flatMap { nodes[$0]?.fields[id] }
    }

    /// The node that room `key` (`scene/name`) is asked to run on: one of the nodes other than
    /// `node` that run its scene, `avoided` only when no other does, picked by the room's key (so
    /// every node asks the same one, and rooms spread over them); nil when there is none.
    func placementTarget(for key: String, besides node: String, avoiding avoided: String? = nil) -> String? {
        guard let slash = key.firstIndex(of: "/") else { return nil }
        let running = nodes(running: String(key[..<slash]), besides: node)
        let preferred = running.filter { $0 != avoided }
        let candidates = preferred.isEmpty ? running : preferred
        guard !candidates.isEmpty else { return nil }
        return candidates[Int(NodeScenes.hash(key) % UInt64(candidates.count))]
    }

    /// The first scene (in id order, then node order) that `mine` runs and another node than
    /// `node` publishes with other fields: the scene, that node, its fingerprint and `mine`'s.
    func conflict(with mine: NodeScenes, node: String) -> (scene: String, node: String, theirs: String, mine: String)? {
        for id in mine.fields.keys.sorted() {
            guard let own = mine.fingerprint(of: id) else { continue }
            for other in nodes(running: id, besides: node) {
                if let theirs = nodes[other]?.fingerprint(of: id), theirs != own { return (id, other, theirs, own) }
            }
        }
        return nil
    }
}

import LayercastHub
import LayercastJSON
import LayercastWire

/// What a node publishes of the scenes it runs (`ClusterKeys.scene`, docs/cluster.md): each
/// scene's `welcome` fields (`SceneFields`) with their fingerprint. A node that lacks a scene
/// welcomes its clients with the fields a node that runs it published; two nodes whose fields for
/// one scene id differ cannot share its rooms.
struct NodeScenes: Equatable {
    /// Scene id → its `welcome` fields.
    let fields: [String: JSONObject]

    init(fields: [String: JSONObject]) { self.fields = fields }

    /// The scenes of `registry`, from each scene's `info` (whose size is its root layer's, by
    /// `Scene`'s contract, so a room of it announces the same).
    init(_ registry: SceneRegistry) {
        fields = Dictionary(uniqueKeysWithValues: registry.scenes.map { ($0.info.id, SceneFields.of($0.info)) })
    }

    /// The fingerprint of scene `id`'s fields; nil when the node lacks it.
    func fingerprint(of id: String) -> String? { fields[id].map { Self.fingerprint(JSONValue.object($0).serialized()) } }

    /// Node `node`'s `publishScenesScript` command: each scene's id and fingerprint, with its
    /// fields' JSON only for the ids in `withFields` (they are needed only where a scene's hash is absent).
    func publication(node: String, expiry: String, withFields: Set<String>) -> [String] {
        var arguments = ["EVAL", ClusterKeys.publishScenesScript, "1", ClusterKeys.sceneIDs, node, expiry,
                         ClusterKeys.scenePrefix, ClusterKeys.sceneNodesPrefix]
        for id in fields.keys.sorted() {
            arguments += [id, fingerprint(of: id) ?? "", withFields.contains(id) ? JSONValue.object(fields[id] ?? [:]).serialized() : ""]
        }
        return arguments
    }

    /// Node `node` stops: it leaves its scenes' nodes (their hashes expire unless other nodes refresh them).
    func leaving(node: String) -> [[String]] { fields.keys.sorted().map { ["ZREM", ClusterKeys.sceneNodes($0), node] } }

    /// "s-" and `hash(text)` in hex: enough to tell two registries apart, not a defence against anyone.
    static func fingerprint(_ text: String) -> String {
        let hex = String(hash(text), radix: 16)
        return "s-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

import LayercastHub
import LayercastJSON
import LayercastWire

/// What a node publishes of the scenes it runs (`ClusterKeys.scenes`, docs/cluster.md): each
/// scene's `welcome` fields (`SceneFields`) with their fingerprint, and the fingerprint of the
/// whole registry. A node that lacks a scene welcomes its clients with the fields a node that runs
/// it published; two nodes whose fields for one scene id differ cannot share its rooms.
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

    /// The fingerprint of the registry: of every scene id with its fields' fingerprint, in id order.
    var fingerprint: String {
        Self.fingerprint(fields.keys.sorted().map { "\($0)=\(fingerprint(of: $0) ?? "")\n" }.joined())
    }

    /// `{"fingerprint": …, "scenes": {id: {"fingerprint": …, "fields": {…}}}}`, ids in order.
    var json: JSONValue {
        let scenes = fields.keys.sorted().map { id -> (String, JSONValue) in
            (id, ["fingerprint": .string(fingerprint(of: id) ?? ""), "fields": .object(fields[id] ?? [:])])
        }
        return ["fingerprint": .string(fingerprint), "scenes": .object(JSONObject(scenes))]
    }

    /// Reads what `json` writes; scenes whose fields are not `SceneFields`' (or name another id)
    /// are left out. Nil when it is not such a document.
    init?(_ value: JSONValue) {
        guard case .object(let document) = value, case .object(let scenes)? = document["scenes"] else { return nil }
        var fields: [String: JSONObject] = [:]
        for (id, scene) in scenes {
            guard let value = scene["fields"], SceneFields.isValid(value), case .object(let object) = value,
                  object["scene"] == .string(id) else { continue }
            fields[id] = object
        }
        self.init(fields: fields)
    }

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

import LayercastJSON
import LayercastWire

/// The cluster's scenes that this node lacks, as last read (`ClusterKeys.readScenesScript`), and
/// what follows from them (docs/cluster.md, "Scenes"): the `welcome` fields of such a scene while
/// a live node runs it, and the node asked to run a room of it.
struct ClusterScenes {
    /// A scene this node lacks, as published.
    struct Scene: Equatable {
        let fingerprint: String
        let fields: JSONObject
        /// Whether a live node ran it when read.
        var live: Bool
    }

    /// Scene id → the scene; every scene of the cluster but this node's own.
    private(set) var scenes: [String: Scene] = [:]

    /// The `readScenesScript` command of a node that runs `own`: its own scenes are left out of the
    /// reply, and the fields of those already read are sent again only when their fingerprint changed.
    func reading(own: NodeScenes, timing: ClusterTiming) -> [String] {
        var arguments = ["EVAL", ClusterKeys.readScenesScript, "1", ClusterKeys.sceneIDs, ClusterKeys.scenePrefix,
                         ClusterKeys.sceneNodesPrefix, ClusterKeys.heartbeatPrefix, String(Int((timing.reportExpiry * 1000).rounded()))]
        for id in own.fields.keys.sorted() { arguments += [id, "own"] }
        for id in scenes.keys.sorted() where own.fields[id] == nil { arguments += [id, scenes[id]?.fingerprint ?? ""] }
        return arguments
    }

    /// Keeps the scenes of a `readScenesScript` reply (id, fingerprint, live, fields or empty, …):
    /// a scene with empty fields keeps those read before under the same fingerprint; a scene whose
    /// fields are not `SceneFields`' (or name another id) is left out, as is every scene not in the
    /// reply. An error reply changes nothing.
    mutating func read(_ reply: RedisReply) {
        guard case .array(let items) = reply else { return }
        var read: [String: Scene] = [:]
        for index in stride(from: 0, to: items.count - 3, by: 4) {
            guard let id = items[index].text, let fingerprint = items[index + 1].text, case .integer(let live) = items[index + 2],
                  case .string(let bytes) = items[index + 3] else { continue }
            if bytes.isEmpty {
                guard let known = scenes[id], known.fingerprint == fingerprint else { continue }
                read[id] = Scene(fingerprint: fingerprint, fields: known.fields, live: live == 1)
            } else {
                guard let value = bytes.withUnsafeBytes({ try? JSONValue.parse(bytes: $0) }), SceneFields.isValid(value),
                      case .object(let fields) = value, fields["scene"] == .string(id) else { continue }
                read[id] = Scene(fingerprint: fingerprint, fields: fields, live: live == 1)
            }
        }
        scenes = read
    }

    /// Scene `id`'s `welcome` fields as published, while a live node runs it; nil otherwise.
    func fields(of id: String) -> JSONObject? { scenes[id].flatMap { $0.live ? $0.fields : nil } }

    /// The `sceneRunnersScript` command that reads the live nodes running room `key`'s scene; nil
    /// when `key` names no scene.
    static func runnersReading(for key: String, timing: ClusterTiming) -> [String]? {
        scene(of: key).map { ["EVAL", ClusterKeys.sceneRunnersScript, "1", ClusterKeys.sceneNodes($0), ClusterKeys.heartbeatPrefix,
                              String(Int((timing.reportExpiry * 1000).rounded()))] }
    }

    /// The live nodes of a `sceneRunnersScript` reply, in order.
    static func runners(_ reply: RedisReply) -> [String] {
        guard case .array(let items) = reply else { return [] }
        return items.compactMap(\.text).sorted()
    }

    /// The node that room `key` (`scene/name`) is asked to run on: one of `running` (the live nodes
    /// that run its scene) other than `node`, `avoided` only when no other does, picked by the
    /// room's key (so every node asks the same one, and rooms spread over them); nil when there is none.
    static func placementTarget(for key: String, among running: [String], besides node: String, avoiding avoided: String? = nil) -> String? {
        let running = running.filter { $0 != node }.sorted()
        let preferred = running.filter { $0 != avoided }
        let candidates = preferred.isEmpty ? running : preferred
        guard !candidates.isEmpty else { return nil }
        return candidates[Int(NodeScenes.hash(key) % UInt64(candidates.count))]
    }

    /// The scene id of room `key` (`scene/name`); nil when it has no slash.
    static func scene(of key: String) -> String? { key.firstIndex(of: "/").map { String(key[..<$0]) } }
}

import LayercastHub
import LayercastJSON

/// The JSON of input forwarded to a room's origin (`ClusterMessage.input`: `I` + this JSON);
/// docs/cluster.md, "Keys and channels".
extension ForwardedInput {
    var json: JSONValue {
        var object: JSONObject = ["room": .string(room), "node": .string(node), "client": .string(client)]
        if let player { object["player"] = .string(player) }
        if let name { object["name"] = .string(name) }
        switch action {
        case .joined:
            object["kind"] = "joined"
        case .tap(let x, let y, let viewTime, let id):
            object["kind"] = "tap"
            object["x"] = .number(x)
            object["y"] = .number(y)
            object["viewTime"] = .number(viewTime)
            if let id { object["id"] = id }
        case .drag(let phase, let x, let y, let viewTime):
            object["kind"] = "drag"
            object["phase"] = .string(phase)
            object["x"] = .number(x)
            object["y"] = .number(y)
            object["viewTime"] = .number(viewTime)
        }
        return .object(object)
    }

    /// Reads input as `json` writes it; nil when it is not (another node's bug, never a client's
    /// bytes: nodes forward only input they have decoded and checked).
    init?(_ value: JSONValue) {
        guard case .object(let o) = value, case .string(let room)? = o["room"], case .string(let node)? = o["node"],
              case .string(let client)? = o["client"], case .string(let kind)? = o["kind"] else { return nil }
        let player: String? = if case .string(let p)? = o["player"] { p } else { nil }
        let name: String? = if case .string(let n)? = o["name"] { n } else { nil }
        func number(_ key: String) -> Double? { if case .number(let n)? = o[key], n.isFinite { n } else { nil } }
        let action: Action
        switch kind {
        case "joined":
            action = .joined
        case "tap":
            guard let x = number("x"), let y = number("y"), let viewTime = number("viewTime") else { return nil }
            action = .tap(x: x, y: y, viewTime: viewTime, id: o["id"])
        case "drag":
            guard case .string(let phase)? = o["phase"], let x = number("x"), let y = number("y"), let viewTime = number("viewTime") else { return nil }
            action = .drag(phase: phase, x: x, y: y, viewTime: viewTime)
        default:
            return nil
        }
        self.init(room: room, node: node, client: client, player: player, name: name, action: action)
    }
}

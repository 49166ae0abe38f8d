import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// The JSON of an admin command forwarded to a room's origin (`ClusterMessage.command`: `C` +
/// this JSON), and of its answer (`ClusterMessage.answer`: `A` + `answerJSON`); docs/cluster.md,
/// "Keys and channels". The body travels as text (admin bodies are JSON).
extension ForwardedCommand {
    var json: JSONValue {
        ["id": .number(Double(id)), "node": .string(node), "room": .string(room), "command": .string(command),
         "body": .string(String(decoding: body, as: UTF8.self))]
    }

    init?(_ value: JSONValue) {
        guard case .object(let o) = value, case .number(let id)? = o["id"], id.isFinite, abs(id) < 1e15,
              case .string(let node)? = o["node"], case .string(let room)? = o["room"],
              case .string(let command)? = o["command"], case .string(let body)? = o["body"] else { return nil }
        self.init(id: Int(id), node: node, room: room, command: command, body: Array(body.utf8))
    }

    /// The answer to command `id`.
    static func answerJSON(_ id: Int, _ answer: Result<CommandAnswer, APIError>) -> JSONValue {
        switch answer {
        case .success(let answer):
            ["id": .number(Double(id)), "status": .number(Double(answer.status)), "document": answer.document]
        case .failure(let error):
            ["id": .number(Double(id)), "status": .number(Double(error.status)), "error": .string(error.code.rawValue), "message": .string(error.message)]
        }
    }

    /// Reads an answer as `answerJSON` writes it.
    static func answer(_ value: JSONValue) -> (id: Int, answer: Result<CommandAnswer, APIError>)? {
        guard case .object(let o) = value, case .number(let id)? = o["id"], id.isFinite, abs(id) < 1e15,
              case .number(let status)? = o["status"], (100...599).contains(status) else { return nil }
        if case .string(let text)? = o["error"] {
            // The origin's scene may declare codes of its own (`extension ErrorCode`): any code's spelling passes.
            guard Self.isCodeSpelling(text) else { return nil }
            let code = ErrorCode(rawValue: text)
            let message: String = if case .string(let m)? = o["message"] { m } else { "" }
            return (Int(id), .failure(APIError(UInt32(status), code, message)))
        }
        guard let document = o["document"] else { return nil }
        return (Int(id), .success(CommandAnswer(status: UInt32(status), document)))
    }

    /// Whether `text` is spelled as every error code is: 1 to 64 lowercase letters, digits and underscores.
    private static func isCodeSpelling(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }
}

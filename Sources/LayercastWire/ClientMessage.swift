import LayercastJSON
import LayercastSceneAPI

/// A message from a client (protocol.md, "Client → server"). Unknown keys are ignored.
public enum ClientMessage: Equatable, Sendable {
    /// `id`, when given, is echoed in the scene's answer to this tap.
    case tap(x: Double, y: Double, viewTime: Double, id: Double?)
    case drag(phase: DragPhase, x: Double, y: Double, viewTime: Double)
    case ping(id: Double?)
    /// The client applied frame `n` (protocol.md, "Acknowledged frames"): the server then bounds
    /// the frames in flight to it.
    case ack(n: Int)

    /// The largest message accepted, in bytes.
    public static let maxBytes = 4096

    /// How far from the origin `x` and `y` may be, in scene points.
    public static let coordinateLimit = 100_000.0

    /// Decodes one text message; never throws, never traps, on any bytes.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<ClientMessage, ProtocolError> {
        Result { () throws(ProtocolError) in try decodeMessage(bytes) }
    }

    private static func decodeMessage(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= maxBytes else {
            throw ProtocolError(.tooLarge, "message is \(bytes.count) bytes, more than \(maxBytes)")
        }
        guard !bytes.isEmpty else { throw ProtocolError(.badJSON, "message is empty, expected a JSON object") }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes: bytes)
        } catch {
            let place = error.line > 0 ? " at line \(error.line) column \(error.column)" : ""
            throw ProtocolError(.badJSON, "text is not JSON: \(error.message)\(place)")
        }
        guard case .object = value else {
            let kind = value.isNull ? "null" : (value.arrayValue != nil ? "an " : "a ") + value.typeName
            throw ProtocolError(.badJSON, "message is \(kind), expected an object")
        }
        guard let typeValue = value["type"] else { throw ProtocolError(.unknownType, "message has no \"type\"") }
        guard case .string(let type) = typeValue else {
            throw ProtocolError(.unknownType, "type must be a string (it is \(FieldReader.describe(typeValue)))")
        }
        let message = FieldReader(value, path: type)
        switch type {
        case "tap":
            let id = message.member("id")
            return .tap(x: try coordinate(message.member("x")), y: try coordinate(message.member("y")),
                        viewTime: try message.member("viewTime").number(),
                        id: id.isAbsentOrNull ? nil : try id.number("a finite number when present"))
        case "drag":
            let phase = message.member("phase")
            guard let name = phase.value?.stringValue, let dragPhase = DragPhase(rawValue: name) else {
                throw phase.error("one of \(DragPhase.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .drag(phase: dragPhase, x: try coordinate(message.member("x")), y: try coordinate(message.member("y")),
                         viewTime: try message.member("viewTime").number())
        case "ping":
            let id = message.member("id")
            return .ping(id: id.isAbsentOrNull ? nil : try id.number("a finite number when present"))
        case "ack":
            let n = try message.member("n").number("a frame number", in: 0...9_007_199_254_740_991)
            guard n == n.rounded() else { throw message.member("n").error("a frame number") }
            return .ack(n: Int(n))
        default:
            throw ProtocolError(.unknownType, "unknown message type \(FieldReader.quoted(type))")
        }
    }

    private static func coordinate(_ field: FieldReader) throws(ProtocolError) -> Double {
        try field.number("a finite number within ±100000", in: -coordinateLimit...coordinateLimit)
    }
}

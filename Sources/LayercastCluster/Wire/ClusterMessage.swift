import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// Every message nodes send each other on Redis channels (docs/cluster.md, "Keys and channels"),
/// one case per kind, and its bytes: a letter naming the kind, then the body. The letters are the
/// wire's (nodes of other builds read them); only this file writes or reads them.
enum ClusterMessage {
    /// `F` on a room's channel: a `frame` message of the room (JSON text) from its origin `origin`.
    case frame(origin: String, text: ArraySlice<UInt8>)
    /// `E` on a room's channel: an `event` message for everyone in the room, from its origin.
    case event(origin: String, text: ArraySlice<UInt8>)
    /// `I` on a node's channel: a client's input for the room's origin to resolve.
    case input(ForwardedInput)
    /// `C` on a node's channel: an admin command for the room's origin.
    case command(ForwardedCommand)
    /// `A` on a node's channel: the origin's answer to the command `id` that node sent.
    case answer(id: Int, Result<CommandAnswer, APIError>)
    /// `R` on a node's channel: send room `room`'s next frame in full.
    case fullFrameRequest(room: String)
    /// `D` on a node's channel: a message (JSON text) for one of that node's clients.
    case delivery(client: String, text: ArraySlice<UInt8>)
    /// `P` on a node's channel: run room `room`, whose scene the sender lacks and has clients in,
    /// going on from frame `frame` at media time `time` (the newest it relayed; -1 and 0: none).
    case placementRequest(room: String, frame: Int, time: Double)

    /// The letter of each kind.
    private enum Kind: Character {
        case frame = "F", event = "E", input = "I", command = "C", answer = "A", fullFrameRequest = "R", delivery = "D"
        case placementRequest = "P"

        var byte: UInt8 { rawValue.asciiValue! }

        /// Whether it travels on a room's channel (else on a node's).
        var onRoomChannel: Bool { self == .frame || self == .event }
    }

    /// The message as published.
    var bytes: [UInt8] {
        switch self {
        case .frame(let origin, let text): Self.join(.frame, origin, text)
        case .event(let origin, let text): Self.join(.event, origin, text)
        case .input(let input): Self.join(.input, input.json.serialized())
        case .command(let command): Self.join(.command, command.json.serialized())
        case .answer(let id, let answer): Self.join(.answer, ForwardedCommand.answerJSON(id, answer).serialized())
        case .fullFrameRequest(let room): Self.join(.fullFrameRequest, room)
        case .delivery(let client, let text): Self.join(.delivery, client, text)
        case .placementRequest(let room, let frame, let time): Self.join(.placementRequest, room, ArraySlice("\(frame) \(time)".utf8))
        }
    }

    /// Reads `payload`, received on a room's channel when `onRoomChannel`, else on a node's.
    init(_ payload: [UInt8], onRoomChannel: Bool) throws(ClusterError) {
        guard let letter = payload.first, let kind = Kind(rawValue: Character(Unicode.Scalar(letter))) else {
            throw ClusterError("a message of no known kind")
        }
        guard kind.onRoomChannel == onRoomChannel else {
            throw ClusterError("\(kind.rawValue) on a \(onRoomChannel ? "room" : "node")'s channel")
        }
        let body = payload[1...]
        switch kind {
        case .frame:
            let (origin, text) = try Self.split(body, kind)
            self = .frame(origin: origin, text: text)
        case .event:
            let (origin, text) = try Self.split(body, kind)
            self = .event(origin: origin, text: text)
        case .input:
            guard let input = Self.json(body).flatMap(ForwardedInput.init) else { throw ClusterError("unreadable forwarded input") }
            self = .input(input)
        case .command:
            guard let command = Self.json(body).flatMap(ForwardedCommand.init) else { throw ClusterError("unreadable forwarded command") }
            self = .command(command)
        case .answer:
            guard let (id, answer) = Self.json(body).flatMap(ForwardedCommand.answer) else { throw ClusterError("unreadable command answer") }
            self = .answer(id: id, answer)
        case .fullFrameRequest:
            self = .fullFrameRequest(room: String(decoding: body, as: UTF8.self))
        case .delivery:
            let (client, text) = try Self.split(body, kind)
            self = .delivery(client: client, text: text)
        case .placementRequest:
            let (room, text) = try Self.split(body, kind)
            let numbers = String(decoding: text, as: UTF8.self).split(separator: " ")
            guard numbers.count == 2, let frame = Int(numbers[0]), let time = Double(numbers[1]), time.isFinite else {
                throw ClusterError("P without a frame number and a time")
            }
            self = .placementRequest(room: room, frame: frame, time: time)
        }
    }

    /// The letter, `name`, a newline and `text`.
    private static func join(_ kind: Kind, _ name: String, _ text: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + text.count + 2)
        bytes.append(kind.byte)
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: text)
        return bytes
    }

    /// The letter and `text`.
    private static func join(_ kind: Kind, _ text: String) -> [UInt8] { [kind.byte] + Array(text.utf8) }

    /// A name, a newline and text, as `join` writes them; the text is not copied.
    private static func split(_ body: ArraySlice<UInt8>, _ kind: Kind) throws(ClusterError) -> (String, ArraySlice<UInt8>) {
        guard let newline = body.firstIndex(of: UInt8(ascii: "\n")) else { throw ClusterError("\(kind.rawValue) without a newline") }
        return (String(decoding: body[..<newline], as: UTF8.self), body[(newline + 1)...])
    }

    private static func json(_ body: ArraySlice<UInt8>) -> JSONValue? { body.withUnsafeBytes { try? JSONValue.parse(bytes: $0) } }
}

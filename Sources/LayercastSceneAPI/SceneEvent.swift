import LayercastJSON

/// Something a scene announces (a selection, an award, a tap's result…); `client` is the client
/// whose input caused it, nil for events the scene raises on its own.
public struct SceneEvent: Equatable, Sendable {
    /// Who hears an event: everyone in the room, or only the client that caused it.
    public enum Audience: Equatable, Sendable {
        /// Every client in the room.
        case room
        /// Only `client`; an event with this audience and no client is heard by no one.
        case client
    }

    /// The event's name, the message's `name` (protocol.md, `event`).
    public var name: String
    /// The scene's details of the event, the message's `data`; an empty object by default.
    public var data: JSONValue
    /// The client whose input caused the event (the message's `by`); nil when the scene raised it.
    public var client: String?
    /// Who hears the event; the whole room by default.
    public var audience: Audience

    /// An event heard by the whole room unless `audience` says otherwise.
    public init(name: String, data: JSONValue = .object([:]), client: String? = nil, audience: Audience = .room) {
        self.name = name
        self.data = data
        self.client = client
        self.audience = audience
    }
}

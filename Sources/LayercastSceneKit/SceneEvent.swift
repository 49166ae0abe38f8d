import LayercastJSON

/// Something a scene announces (a selection, an award, a tap's result…); `client` is the client
/// whose input caused it, nil for events the scene raises on its own.
public struct SceneEvent: Equatable, Sendable {
    /// Who hears an event: everyone in the room, or only the client that caused it.
    public enum Audience: Equatable, Sendable {
        case room
        /// Only `client`; an event with this audience and no client is heard by no one.
        case client
    }

    public var name: String
    public var data: JSONValue
    public var client: String?
    public var audience: Audience

    public init(name: String, data: JSONValue = .object([:]), client: String? = nil, audience: Audience = .room) {
        self.name = name
        self.data = data
        self.client = client
        self.audience = audience
    }
}

import LayercastJSON

/// Who tapped: the connection whose answer it is, the player it wins for, and the tap's own id.
public struct Tapper: Equatable, Sendable {
    /// The client id events for the tapper are addressed to.
    public var client: String
    /// The player's public id; the client id for a scene played without identities (tests).
    public var player: String
    /// The name the room shows for the player.
    public var name: String
    /// The tap message's `id`, echoed in its answer; nil when it had none.
    public var id: JSONValue?

    /// A tapper; `player` defaults to `client` and `name` to `player`.
    public init(client: String, player: String? = nil, name: String? = nil, id: JSONValue? = nil) {
        self.client = client
        self.player = player ?? client
        self.name = name ?? player ?? client
        self.id = id
    }
}

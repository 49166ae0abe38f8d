import LayercastJSON

/// The events a scene has announced and the room has not taken yet, oldest first: what an
/// `AnnouncingScene`'s `takeEvents()` drains. Used from the scene's thread only.
public final class SceneEventLog {
    private var events: [SceneEvent] = []

    /// An empty log.
    public init() {}

    /// Announces `name` with `data`, caused by `client`'s input (nil when the scene raises it on
    /// its own), heard by `audience`: the whole room by default.
    public func announce(_ name: String, _ data: JSONValue = .object([:]), by client: String? = nil,
                         audience: SceneEvent.Audience = .room) {
        events.append(SceneEvent(name: name, data: data, client: client, audience: audience))
    }

    /// Returns the events announced since the last call, oldest first, and forgets them.
    public func take() -> [SceneEvent] {
        defer { events = [] }
        return events
    }
}

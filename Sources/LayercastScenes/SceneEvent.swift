import LayercastJSON

/// Something a scene announces to everyone in its room (a selection, an award…); `client` is
/// the client whose input caused it, nil for events the scene raises on its own.
public struct SceneEvent: Equatable, Sendable {
    public var name: String
    public var data: JSONValue
    public var client: String?

    public init(name: String, data: JSONValue = .object([:]), client: String? = nil) {
        self.name = name
        self.data = data
        self.client = client
    }
}

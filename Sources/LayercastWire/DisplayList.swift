import LayercastJSON

/// The visible layers of one frame, back to front (a full frame's `items`); ids are unique.
public struct DisplayList: Hashable, Sendable {
    public var items: [DrawItem]

    public init(items: [DrawItem] = []) {
        self.items = items
    }

    /// Parses the `items` of a full `frame` message (`FrameMessage.full`).
    public init(fullFrame message: JSONValue) throws(ProtocolError) {
        let frame = try FrameMessage.frameReader(message, full: true)
        var items: [DrawItem] = []
        for item in try frame.member("items").array() { items.append(try DrawItem(item)) }
        self.init(items: items)
    }
}

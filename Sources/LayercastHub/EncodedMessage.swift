import LayercastJSON

/// One JSON text encoded once, after `headroom` free bytes (the transport's framing room), that
/// any number of clients are sent in turn.
public final class EncodedMessage {
    private let text: JSONText

    /// The transport's own encoding of this message (a compressed frame), made by the first write
    /// that needs it and reused by every later one; the hub never reads it.
    public var transportEncoding: AnyObject?

    /// Length of the JSON text in bytes.
    public var count: Int { text.count }

    init(_ value: JSONValue, headroom: Int) {
        text = value.text(headroom: headroom)
    }

    /// The tree's text, dumped by jansson straight into the buffer.
    init(_ tree: JSONTree, headroom: Int) {
        text = tree.text(headroom: headroom)
    }

    /// A copy of JSON text encoded elsewhere (a frame or event relayed from the room's origin).
    public init(copying text: UnsafeRawBufferPointer, headroom: Int) {
        self.text = JSONText(copying: text, headroom: headroom)
    }

    /// Calls `body` with the text alone (no headroom).
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { text.withText { body(UnsafeRawBufferPointer($0)) } }

    /// Calls `body` with the text (the buffer's `headroom` bytes before it are free to write) and
    /// answers what it answers: whether the write succeeded. Not generic, so the write path makes
    /// no unspecialized call across the module boundary.
    public func write(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Bool) -> Bool { text.withText(body) }
}

import CLibWebSockets
import LayercastJSON

/// One JSON text encoded once, in a buffer with LWS_PRE bytes of headroom, that any number of
/// connections write from in turn on the service thread.
final class EncodedMessage {
    private let text: JSONText

    /// Length of the JSON text in bytes.
    var count: Int { text.count }

    init(_ value: JSONValue) {
        text = value.text(headroom: layercast_lws_pre)
    }

    /// The tree's text, dumped by jansson straight into the buffer.
    init(_ tree: JSONTree) {
        text = tree.text(headroom: layercast_lws_pre)
    }

    /// Writes the text as one WebSocket text message; false when lws reports the connection failed.
    func write(to wsi: OpaquePointer) -> Bool {
        text.withText { lws_write(wsi, $0.baseAddress, $0.count, LWS_WRITE_TEXT) >= $0.count }
    }
}

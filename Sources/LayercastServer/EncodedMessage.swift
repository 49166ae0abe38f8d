import CLibWebSockets
import LayercastJSON

/// One JSON text encoded once, in a buffer with LWS_PRE bytes of headroom, that any number of
/// connections write from in turn on the service thread.
final class EncodedMessage {
    private let storage: UnsafeMutableRawPointer
    /// Length of the JSON text in bytes.
    let count: Int

    init(_ value: JSONValue) {
        var text = value.serialized()
        count = text.utf8.count
        storage = .allocate(byteCount: layercast_lws_pre + count, alignment: 16)
        let target = storage + layercast_lws_pre
        text.withUTF8 { utf8 in
            if let base = utf8.baseAddress { target.copyMemory(from: base, byteCount: utf8.count) }
        }
    }

    deinit { storage.deallocate() }

    /// Writes the text as one WebSocket text message; false when lws reports the connection failed.
    func write(to wsi: OpaquePointer) -> Bool {
        let text = (storage + layercast_lws_pre).assumingMemoryBound(to: UInt8.self)
        return lws_write(wsi, text, count, LWS_WRITE_TEXT) >= count
    }
}

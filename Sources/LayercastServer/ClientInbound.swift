import LayercastPlatform

/// What the server keeps of one client's inbound WebSocket stream, which it reads itself
/// (Server+Inbound.swift): the frame reader, the UTF-8 check of the text message in progress, the
/// inflater of its compressed messages (made at the first), and the watcher of its socket.
final class ClientInbound {
    var reader: ClientFrameReader
    var text = UTF8Validator()
    var inflater: MessageInflater?
    var watcher: ReadWatcher?

    init(deflate: Bool) {
        reader = ClientFrameReader(deflate: deflate)
    }
}

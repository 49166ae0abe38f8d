import CLibWebSockets

// The C entry points lws calls on the service thread; each finds its `Server` through the
// context's user pointer and hands over at once.

/// The protocol callback shared by `http` and `layercast.v1`.
func layercastServiceCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                              _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    let server = Unmanaged<Server>.fromOpaque(owner).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_HTTP:
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
        return server.respond(wsi, path: path)
    case LWS_CALLBACK_HTTP_BODY:
        server.receiveBody(wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return server.completePost(wsi)
    case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_CLOSED, LWS_CALLBACK_WSI_DESTROY:
        server.forget(wsi)
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return server.httpWritable(wsi)
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
        return server.completeTransaction(wsi)
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        server.hold(wsi)
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return server.filterHandshake(wsi)
    case LWS_CALLBACK_CONFIRM_EXTENSION_OKAY:
        return server.confirmExtension(wsi)
    case LWS_CALLBACK_ADD_HEADERS:
        guard let input else { return 0 }
        return server.completeExtensionAnswer(wsi, input.assumingMemoryBound(to: lws_process_html_args.self))
    case LWS_CALLBACK_ESTABLISHED:
        server.establish(wsi)
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return server.writable(wsi)
    case LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL:
        server.beginClosing(wsi)
    case LWS_CALLBACK_RAW_RX_FILE:
        server.acceptShared()
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        server.serviceWasCancelled()
    default:
        break
    }
    return 0
}

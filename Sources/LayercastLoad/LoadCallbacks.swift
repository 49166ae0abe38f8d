import CLibWebSockets

/// The `layercast.v1` client protocol callback, called by lws on a load thread: finds its
/// `ClientLoop` through the context's user pointer and its `SimulatedClient` through the
/// connection's user data.
func layercastLoadCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                           _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let user, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    let loop = Unmanaged<ClientLoop>.fromOpaque(owner).takeUnretainedValue()
    let client = Unmanaged<SimulatedClient>.fromOpaque(user).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        loop.established(client, wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        loop.receive(client, wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return loop.writable(client, wsi)
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR, LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_WSI_DESTROY:
        // WSI_DESTROY comes for every connection lws frees, whatever closed it: a handshake that
        // times out waiting for the server's reply gets neither of the others (lws 4.1 tells it
        // as CLOSED_CLIENT_HTTP), and the client must not keep the freed connection.
        loop.closed(client, wsi)
    default:
        break
    }
    return 0
}

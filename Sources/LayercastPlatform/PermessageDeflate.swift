import CLibWebSockets
import Foundation

/// libwebsockets' permessage-deflate (RFC 7692) as the only extension: the load tool's clients
/// inflate and deflate with it (its defaults: level 1, 32 KiB window, context takeover); the
/// server uses it to negotiate and to inflate what clients send, and compresses what it sends
/// itself (`Server+Deflate.swift`). The NULL-terminated list for
/// `lws_context_creation_info.extensions`, allocated once and kept for the process's life
/// (lws reads it on every handshake; never written after it is made).
nonisolated(unsafe) public let permessageDeflateExtensions: UnsafePointer<lws_extension> = {
    let list = UnsafeMutablePointer<lws_extension>.allocate(capacity: 2)
    list[0] = lws_extension(name: strdup("permessage-deflate"), callback: lws_extension_callback_pm_deflate,
                            client_offer: strdup("permessage-deflate; client_max_window_bits"))
    list[1] = lws_extension()
    return UnsafePointer(list)
}()

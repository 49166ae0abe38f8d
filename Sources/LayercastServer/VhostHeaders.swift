import CLibWebSockets
import Foundation

/// Headers libwebsockets adds to every HTTP response it builds, ours and its own (403, 404…):
/// the C list behind `lws_context_creation_info.headers`, owned here until the server is gone.
final class VhostHeaders {
    /// The first entry of the list, for `info.headers`.
    let list: UnsafeMutablePointer<lws_protocol_vhost_options>
    private let count: Int

    /// `headers` as (lower-case name, value); lws writes each as `name: value`.
    init(_ headers: [(name: String, value: String)]) {
        count = headers.count
        list = .allocate(capacity: max(count, 1))
        list.initialize(repeating: lws_protocol_vhost_options(), count: max(count, 1))
        for (index, header) in headers.enumerated() {
            list[index].name = UnsafePointer(strdup(header.name + ":"))
            list[index].value = UnsafePointer(strdup(header.value))
            if index + 1 < count { list[index].next = UnsafePointer(list + index + 1) }
        }
    }

    deinit {
        for index in 0..<count {
            free(UnsafeMutableRawPointer(mutating: list[index].name))
            free(UnsafeMutableRawPointer(mutating: list[index].value))
        }
        list.deallocate()
    }
}

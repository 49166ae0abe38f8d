import CLibWebSockets

/// The libwebsockets idle policy of every connection we make or accept: none of lws's own.
///
/// Without a policy lws 4.1 gives every WebSocket a "validity" timer (a PING after 300 s, a hangup
/// at 310 s unless lws itself reads the PONG) and keeps it in one list sorted by time, walked from
/// the head on every insert: each new connection and each PONG cost a walk of all of them. The
/// server reads its clients' frames itself (lws never sees a PONG), so it hung up every client at
/// 310 s; and at thousands of connections the walks were a tenth of a node's CPU in a reconnect
/// storm. Dead peers are the kernel's to find instead (`Server.keepAlive`) and slow ones the
/// hub's (`--stall-timeout`).
public enum ConnectionValidity {
    /// A policy with no PING and no hangup (`secs_since_valid_hangup` 0), for
    /// `lws_context_creation_info.retry_and_idle_policy` and `lws_client_connect_info`'s.
    nonisolated(unsafe) public static let none: UnsafePointer<lws_retry_bo_t> = {
        let policy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        policy.initialize(to: lws_retry_bo_t())
        return UnsafePointer(policy)
    }()
}

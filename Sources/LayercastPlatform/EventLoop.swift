import CLibEv
import CLibWebSockets

/// A libev loop (epoll) for one libwebsockets context, handed to lws 4.1 as a foreign loop through
/// its libev event-lib plugin: lws's own loop would `poll` every socket on every turn. Its owner
/// turns it, and releases it after destroying the context. The server and the load tool's
/// clients run on it.
///
/// Their own timers are `EventTimer`s, not lws's (`lws_sul_schedule`): lws 4.1's plugin re-arms
/// its one libev timer with `ev_timer_set` while the timer is active, which libev ignores, so an
/// lws timer due sooner than the armed one waits for it (a 2 ms timer waited for seconds).
public final class EventLoop {
    let loop: OpaquePointer

    /// Nil when libev cannot make a loop.
    public init?() {
        guard let loop = ev_loop_new(UInt32(EVBACKEND_EPOLL)) ?? ev_loop_new(UInt32(EVFLAG_AUTO)) else { return nil }
        self.loop = loop
    }

    deinit { ev_loop_destroy(loop) }

    /// `lws_create_context(info)` on this loop, its connections without lws's idle checks
    /// (`ConnectionValidity`); nil when lws cannot make it (among other reasons, when Debian's
    /// libwebsockets-evlib-ev plugin is missing).
    public func createContext(_ info: inout lws_context_creation_info) -> OpaquePointer? {
        info.options |= UInt64(LWS_SERVER_OPTION_LIBEV)
        info.retry_and_idle_policy = ConnectionValidity.none
        var foreignLoops: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(loop)]
        return foreignLoops.withUnsafeMutableBufferPointer { loops in
            info.foreign_loops = loops.baseAddress
            defer { info.foreign_loops = nil }
            return lws_create_context(&info)
        }
    }

    /// One turn: waits for I/O or lws's next timer and serves what is ready.
    public func turn() { ev_run(loop, Int32(EVRUN_ONCE)) }
}

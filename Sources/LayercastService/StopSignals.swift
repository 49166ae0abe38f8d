import Foundation
import LayercastServer

/// SIGINT and SIGTERM for `serve`: blocked from the start in every thread, then taken by one
/// thread with `sigwait`, so that a signal is never lost however early it comes (a Dispatch
/// signal source arms only some time after it is resumed). The first one stops the server.
enum StopSignals {
    /// Blocks both signals in the calling thread and every thread started after; call first.
    static func block() {
        var set = signals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that waits for the first of them and asks `server` to stop.
    static func stop(_ server: Server) {
        Thread {
            var set = signals
            var number: Int32 = 0
            sigwait(&set, &number)
            server.requestStop()
        }.start()
    }

    private static var signals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}

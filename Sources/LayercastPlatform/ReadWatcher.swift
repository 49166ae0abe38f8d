import CLibEv

/// Calls `ready` on the loop's thread, from a `turn()`, each time a descriptor has bytes to read
/// or has reached its end: a libev read watcher of ours, for a socket whose reading lws has been
/// told to leave alone (`lws_rx_flow_control`). It watches from `init` until `stop()` or deinit.
public final class ReadWatcher {
    private let eventLoop: EventLoop
    private let io: UnsafeMutablePointer<layercast_ev_io>
    /// Run by `readWatcherCallback` when the descriptor is readable.
    fileprivate let ready: () -> Void

    public init(on eventLoop: EventLoop, descriptor: Int32, ready: @escaping () -> Void) {
        self.eventLoop = eventLoop
        self.ready = ready
        io = .allocate(capacity: 1)
        io.initialize(to: layercast_ev_io())
        io.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        layercast_ev_io_start(eventLoop.loop, io, descriptor, readWatcherCallback)
    }

    deinit {
        stop()
        io.deallocate()
    }

    /// Calls `ready` no more.
    public func stop() {
        withUnsafeMutablePointer(to: &io.pointee.watcher) { ev_io_stop(eventLoop.loop, $0) }
    }
}

/// libev's callback for every `ReadWatcher`: finds the watcher from its ev_io.
private let readWatcherCallback: layercast_ev_io_callback = { _, watcher, _ in
    guard let watcher else { return }
    let io = UnsafeMutableRawPointer(watcher).assumingMemoryBound(to: layercast_ev_io.self)
    guard let owner = io.pointee.owner else { return }
    let reader = Unmanaged<ReadWatcher>.fromOpaque(owner).takeUnretainedValue()
    withExtendedLifetime(reader) { reader.ready() }
}

import CLibEv

/// A one-shot timer on an `EventLoop`, a libev timer of ours: `schedule(after:)` (re)arms it and
/// `fire` runs on the loop's thread, from a `turn()`. Unlike a libwebsockets timer (`lws_sul`) on
/// the libev plugin, a sooner timer never waits for a later one armed before it.
public final class EventTimer {
    private let eventLoop: EventLoop
    private let timer: UnsafeMutablePointer<layercast_ev_timer>
    /// Run by `eventTimerCallback` when the timer fires.
    fileprivate let fire: () -> Void

    public init(on eventLoop: EventLoop, fire: @escaping () -> Void) {
        self.eventLoop = eventLoop
        self.fire = fire
        timer = .allocate(capacity: 1)
        timer.initialize(to: layercast_ev_timer())
        layercast_ev_timer_init(timer, eventTimerCallback)
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        cancel()
        timer.deallocate()
    }

    /// Fires once, `seconds` from now (at once when not positive); replaces any earlier schedule.
    public func schedule(after seconds: Double) {
        layercast_ev_timer_start(eventLoop.loop, timer, seconds > 0 ? seconds : 0)
    }

    /// Will not fire until scheduled again.
    public func cancel() {
        withUnsafeMutablePointer(to: &timer.pointee.watcher) { ev_timer_stop(eventLoop.loop, $0) }
    }
}

/// libev's callback for every `EventTimer`: finds the timer from its watcher.
private let eventTimerCallback: layercast_ev_timer_callback = { _, watcher, _ in
    guard let watcher else { return }
    let timer = UnsafeMutableRawPointer(watcher).assumingMemoryBound(to: layercast_ev_timer.self)
    guard let owner = timer.pointee.owner else { return }
    Unmanaged<EventTimer>.fromOpaque(owner).takeUnretainedValue().fire()
}

import Foundation

/// The clock, timers, transactions and animation events of one scene. `CACurrentMediaTime()`,
/// `CATransaction` and `add(_:forKey:)` act on the current thread's context; `advance(to:)`
/// delivers timers and animation start/stop events in media-time order, each at its exact time
/// (docs/engine-model.md §8), so a scene evolves the same at any frame rate.
public final class SceneContext {
    /// The clock that gives the scene's media time.
    public let clock: MediaClock
    var transactions: [CATransaction.State] = []
    private var attached: [CAAnimation] = []
    private var queue: [Event] = []
    private var timers: [SceneTimer] = []
    private var timerSequence = 0
    /// The time of the event being delivered; nil outside `advance(to:)`.
    private var eventTime: CFTimeInterval?
    /// The latest time delivered so far; events never run earlier than this.
    private var deliveredUpTo = -CFTimeInterval.infinity

    /// The most events `advance(to:)` delivers in one call, a guard against callbacks that
    /// schedule work at the same instant forever.
    public static let maxEventsPerAdvance = 100_000

    enum Event {
        case stop(CAAnimation, finished: Bool)
        case completion(TransactionCompletion)
    }

    /// A context with no transactions, timers or animations, reading time from `clock`.
    public init(clock: MediaClock = MonotonicClock()) {
        self.clock = clock
    }

    /// The media time now: the time of the event being delivered, else the clock's.
    public var now: CFTimeInterval { eventTime ?? clock.now }

    // MARK: Current context

    private final class ThreadState {
        var stack: [SceneContext] = []
        lazy var fallback = SceneContext()
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            Unmanaged<AnyObject>.fromOpaque(pointer!).release()
        }
        return key
    }()

    private static var threadState: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// The context code on this thread runs in: the innermost `run` call's, or a per-thread
    /// default on the monotonic clock.
    public static var current: SceneContext {
        let state = threadState
        return state.stack.last ?? state.fallback
    }

    /// Runs `body` with this context current on this thread.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        let state = Self.threadState
        state.stack.append(self)
        defer { state.stack.removeLast() }
        return try body()
    }

    // MARK: Timers

    /// Calls `block` at `now + delay`, then every `interval` if one is given; `invalidate()` stops it.
    @discardableResult
    public func schedule(after delay: CFTimeInterval, repeating interval: CFTimeInterval? = nil,
                         _ block: @escaping (SceneTimer) -> Void) -> SceneTimer {
        timerSequence += 1
        let timer = SceneTimer(fireTime: now + max(0, delay), interval: interval.map { max($0, 1e-3) }, sequence: timerSequence, block: block)
        timers.append(timer)
        return timer
    }

    // MARK: Animation lifecycle

    func attach(_ animation: CAAnimation) {
        attached.append(animation)
        CATransaction.track(animation, in: self)
    }

    /// Records that an attached animation was removed or replaced before it finished.
    func detach(_ animation: CAAnimation) {
        guard !animation.stopped else { return }
        animation.stopped = true
        enqueue(.stop(animation, finished: false))
    }

    func enqueue(_ event: Event) { queue.append(event) }

    /// Delivers, in time order, every timer and animation event due up to `time` (default: the
    /// clock's now); callbacks see `CACurrentMediaTime()` equal to their own event's time.
    public func advance(to time: CFTimeInterval? = nil) {
        let target = time ?? clock.now
        run {
            var delivered = 0
            while delivered < Self.maxEventsPerAdvance {
                delivered += 1
                if !queue.isEmpty {
                    deliver(queue.removeFirst())
                    continue
                }
                guard let next = nextDue(before: target) else { break }
                deliveredUpTo = max(deliveredUpTo, next.time)
                eventTime = deliveredUpTo
                fire(next.event)
            }
            deliveredUpTo = max(deliveredUpTo, target)
            eventTime = nil
        }
    }

    private struct Due {
        var time: CFTimeInterval
        var order: Int
        var event: DueEvent
    }

    private enum DueEvent {
        case start(CAAnimation)
        case finish(CAAnimation)
        case timer(SceneTimer)
    }

    /// The earliest pending start, stop or timer at or before `target`. An animation's times are
    /// computed through its layer's time once, and again only after that time changed
    /// (`CALayer.timeChanged`): a scan is a pass over stored times, however many events an
    /// advance delivers.
    private func nextDue(before target: CFTimeInterval) -> Due? {
        var best: Due?
        func consider(_ time: CFTimeInterval, _ order: Int, _ event: @autoclosure () -> DueEvent) {
            guard time <= target else { return }
            if best == nil || (time, order) < (best!.time, best!.order) { best = Due(time: time, order: order, event: event()) }
        }
        var kept = 0
        for index in attached.indices {
            let animation = attached[index]
            if animation.stopped { continue }
            if animation.dueTimes == nil {
                // A layer that went away cleared its animations' times, so this finds them.
                guard let layer = animation.attachedLayer else { continue }
                if let timing = animation.resolved {
                    let ends = timing.activeDuration.isFinite && timing.speed > 0
                    animation.dueTimes = (layer.mediaTime(fromLocal: timing.beginTime),
                                          ends ? layer.mediaTime(fromLocal: timing.beginTime + timing.activeDuration / timing.speed) : nil)
                }
            }
            attached[kept] = animation
            kept += 1
            guard let due = animation.dueTimes else { continue }
            if !animation.started {
                consider(due.start, 0, .start(animation))
            } else if let end = due.end {
                consider(end, 1, .finish(animation))
            }
        }
        attached.removeSubrange(kept...)
        timers.removeAll { !$0.isValid }
        for timer in timers {
            consider(timer.fireTime, 2 + timer.sequence, .timer(timer))
        }
        return best
    }

    private func fire(_ event: DueEvent) {
        switch event {
        case .start(let animation): start(animation)
        case .finish(let animation):
            // Its times are known only while its layer lives (the layer clears them as it goes).
            guard let layer = animation.attachedLayer else { return }
            finish(animation, on: layer)
        case .timer(let timer): timer.fire()
        }
    }

    private func start(_ animation: CAAnimation) {
        animation.started = true
        animation.delegate?.animationDidStart(animation)
    }

    private func finish(_ animation: CAAnimation, on layer: CALayer) {
        animation.stopped = true
        if animation.isRemovedOnCompletion { layer.detachFinished(animation) }
        deliver(.stop(animation, finished: true))
    }

    private func deliver(_ event: Event) {
        switch event {
        case .stop(let animation, let finished):
            animation.delegate?.animationDidStop(animation, finished: finished)
            let groups = animation.completionGroups
            animation.completionGroups = []
            for group in groups { group.animationStopped(in: self) }
        case .completion(let completion):
            completion.block()
        }
    }
}

/// A scene timer: fires at its time, then every `interval` until invalidated.
public final class SceneTimer {
    /// The media time of the timer's next firing.
    public private(set) var fireTime: CFTimeInterval
    /// Seconds between firings for a repeating timer; nil fires once.
    public let interval: CFTimeInterval?
    let sequence: Int
    private var block: ((SceneTimer) -> Void)?

    init(fireTime: CFTimeInterval, interval: CFTimeInterval?, sequence: Int, block: @escaping (SceneTimer) -> Void) {
        self.fireTime = fireTime
        self.interval = interval
        self.sequence = sequence
        self.block = block
    }

    /// Whether the timer will still fire (false once invalidated or after a one-shot has fired).
    public var isValid: Bool { block != nil }

    /// Stops the timer; it never fires again.
    public func invalidate() { block = nil }

    func fire() {
        guard let block else { return }
        if let interval { fireTime += interval } else { self.block = nil }
        block(self)
    }
}

/// The current media time of the current thread's scene context, as on iOS.
public func CACurrentMediaTime() -> CFTimeInterval {
    SceneContext.current.now
}

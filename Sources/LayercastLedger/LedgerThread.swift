import Foundation

/// The ledger on a thread of its own, so that a slow, locked or unreachable database never holds
/// up the thread that submits calls (the server's event loop). It owns the ledger and runs the
/// submitted calls one at a time, in order, from a queue of at most `capacity`. Each call has a
/// deadline on the submitter's clock: its answer comes back through `deliver(now:)` on the
/// submitter's thread, either the call's own result or, once `now` passes the deadline first,
/// `LedgerThread.timedOut`; exactly one of the two, decided under one lock. A call whose deadline
/// passes while it waits in the queue never runs; one that was running when its deadline passed
/// runs its `abandoned` step on the ledger thread right after it (an award undoes itself there),
/// and again before each later call until the step says it is done.
///
/// A full queue, or a ledger stalled on a call past its deadline, refuses a new call at once with
/// `unavailable`. `inline` runs every call at once on the submitter's thread instead (a memory
/// ledger, tests). Submit, deliver and `stop` from one thread only; `wake` is called from the
/// ledger thread each time an answer is ready.
public final class LedgerThread: @unchecked Sendable {
    /// What a refused or timed-out call answers: an `io` error saying why.
    public static func unavailable(_ why: String) -> LedgerError { LedgerError(.io, "the ledger is unavailable: \(why)") }

    /// One call's answer as `deliver` reports it, for metrics.
    public struct Outcome: Sendable {
        /// The operation's name, as submitted ("award", "begin_round", "read", ...).
        public let operation: String
        /// Seconds the call ran on the ledger thread; nil when it never ran (timed out in the queue).
        public let seconds: Double?
        /// Whether the call was answered `timedOut` (its deadline came first).
        public let timedOut: Bool

        public init(operation: String, seconds: Double?, timedOut: Bool) {
            self.operation = operation
            self.seconds = seconds
            self.timedOut = timedOut
        }
    }

    /// Why the ledger is degraded, or nil: a call has been running past its deadline, or the last
    /// call failed or timed out (cleared by the next call that succeeds).
    public var degradedReason: String? {
        lock.lock()
        defer { lock.unlock() }
        if let running, running.abandoned { return "a ledger call (\(running.operation)) has run past its deadline" }
        return lastFailure
    }

    /// Calls submitted and not yet answered (queued or running).
    public var pending: Int { calls.count }

    /// The operation of the call running on the ledger's thread, if any.
    var runningOperation: String? {
        lock.lock()
        defer { lock.unlock() }
        return running?.operation
    }

    public let capacity: Int
    private let wake: @Sendable () -> Void
    private let ledger: (any Ledger)?
    private let inlineLedger: (any Ledger)?
    private let lock = NSCondition()
    /// Guarded by `lock`: calls waiting to run, the one running, the ones answered and not yet
    /// delivered, whether to stop, the last failure's message.
    private var queue: [Call] = []
    private var running: Call?
    private var finished: [Call] = []
    private var stopRequested = false
    private var lastFailure: String?
    private var thread: Thread?
    /// Submitter's side: the calls not yet delivered, by number, in submission order.
    private var calls: [Int: Call] = [:]
    private var nextNumber = 0

    /// A thread owning `ledger`, started at once and kept (with the ledger) until `stop`; answers
    /// wake the submitter through `wake`.
    public init(_ ledger: any Ledger, capacity: Int = 256, wake: @escaping @Sendable () -> Void) {
        self.ledger = ledger
        inlineLedger = nil
        self.capacity = capacity
        self.wake = wake
        let thread = Thread { [self] in serve() }  // the thread keeps it, and its ledger, until it stops
        thread.name = "layercast-ledger"
        self.thread = thread
        thread.start()
    }

    /// Runs every call at once on the submitter's thread (a memory ledger, tests).
    public init(inline ledger: any Ledger) {
        self.ledger = nil
        inlineLedger = ledger
        capacity = .max
        wake = {}
    }

    /// Submits `work`, answered through `done` on the submitter's thread by `deliver`, by `deadline`
    /// on the submitter's clock (or at once, refused, when the queue is full or the ledger is stalled).
    /// `abandoned` runs on the ledger thread when `work` finished after the deadline answered it,
    /// and returns whether it is done: if not, it runs again before each later call until it is.
    public func submit<T>(_ operation: String, deadline: Double, _ work: @escaping (any Ledger) throws(LedgerError) -> T,
                          abandoned: ((any Ledger, T) -> Bool)? = nil, done: @escaping (Result<T, LedgerError>) -> Void) {
        if let inlineLedger {
            return done(Result { () throws(LedgerError) -> T in try work(inlineLedger) })
        }
        let box = ResultBox<T>()
        let call = Call(operation: operation, deadline: deadline,
                        run: { ledger in
                            let result = Result { () throws(LedgerError) -> T in try work(ledger) }
                            box.result = result
                            if case .failure(let error) = result, error.code == .io || error.code == .open { return error.message }
                            return nil
                        },
                        abandon: { ledger in
                            guard let abandoned, case .success(let value) = box.result else { return true }
                            return abandoned(ledger, value)
                        },
                        answer: { timedOut in done(timedOut ? .failure(Self.unavailable("no answer within the deadline")) : box.result!) })
        nextNumber += 1
        call.number = nextNumber
        lock.lock()
        let refusal: String? = if let running, running.abandoned {
            "a ledger call (\(running.operation)) has run past its deadline"
        } else if queue.count >= capacity {
            "\(capacity) calls are waiting"
        } else {
            nil
        }
        if refusal == nil {
            queue.append(call)
            lock.signal()
        }
        lock.unlock()
        if let refusal { return done(.failure(Self.unavailable(refusal))) }
        calls[call.number] = call
    }

    /// Answers what has finished, and `timedOut` each call whose deadline is at or before `now`;
    /// returns what was answered. Call on the submitter's thread (each tick, and when woken).
    @discardableResult
    public func deliver(now: Double) -> [Outcome] {
        guard !calls.isEmpty else { return [] }
        var answered: [(Call, Bool)] = []
        lock.lock()
        for call in finished { answered.append((call, false)) }
        finished.removeAll()
        for call in calls.values where !call.finished && !call.abandoned && call.deadline <= now {
            call.abandoned = true
            answered.append((call, true))
            lastFailure = "a ledger call (\(call.operation)) timed out"
        }
        lock.unlock()
        var outcomes: [Outcome] = []
        for (call, timedOut) in answered.sorted(by: { $0.0.number < $1.0.number }) {
            calls[call.number] = nil
            call.answer(timedOut)
            outcomes.append(Outcome(operation: call.operation, seconds: call.seconds, timedOut: timedOut))
        }
        return outcomes
    }

    /// Stops the thread once its queue is empty (calls still queued run first); waits for it at most
    /// `seconds`. The ledger closes with the thread.
    public func stop(waiting seconds: Double) {
        guard let thread else { return }
        lock.lock()
        stopRequested = true
        lock.signal()
        let until = Date(timeIntervalSinceNow: seconds)
        while !thread.isFinished, Date() < until { _ = lock.wait(until: min(until, Date(timeIntervalSinceNow: 0.01))) }
        lock.unlock()
    }

    /// The ledger thread: runs each queued call that is still wanted, in order.
    private func serve() {
        guard let ledger else { return }
        /// Calls that finished late and whose `abandoned` step is not done yet.
        var unfinished: [Call] = []
        while true {
            lock.lock()
            while queue.isEmpty, !stopRequested { lock.wait() }
            if queue.isEmpty {
                lock.unlock()
                return
            }
            let call = queue.removeFirst()
            if call.abandoned {
                lock.unlock()
                continue
            }
            lock.unlock()
            unfinished.removeAll { $0.abandon(ledger) }
            lock.lock()
            running = call
            lock.unlock()
            let started = DispatchTime.now().uptimeNanoseconds
            let failure = call.run(ledger)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            lock.lock()
            running = nil
            call.seconds = seconds
            let abandoned = call.abandoned
            if !abandoned {
                call.finished = true
                finished.append(call)
            }
            lastFailure = failure.map { "the last ledger call (\(call.operation)) failed: \($0)" }
            lock.broadcast()
            lock.unlock()
            if abandoned, !call.abandon(ledger) { unfinished.append(call) }
            wake()
        }
    }

    /// One submitted call. `abandoned` and `finished` are guarded by the thread's lock.
    private final class Call: @unchecked Sendable {
        let operation: String
        let deadline: Double
        /// Runs on the ledger thread; returns the message of an I/O failure.
        let run: (any Ledger) -> String?
        /// Runs on the ledger thread after `run` finished late; false to be run again later.
        let abandon: (any Ledger) -> Bool
        /// Runs on the submitter's thread: true when timed out.
        let answer: (Bool) -> Void
        var number = 0
        var abandoned = false
        var finished = false
        var seconds: Double?

        init(operation: String, deadline: Double, run: @escaping (any Ledger) -> String?, abandon: @escaping (any Ledger) -> Bool,
             answer: @escaping (Bool) -> Void) {
            self.operation = operation
            self.deadline = deadline
            self.run = run
            self.abandon = abandon
            self.answer = answer
        }
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, LedgerError>?
    }
}

import Foundation
import LayercastEngine
import Logging
import Synchronization

/// The node's Redis side, on a thread of its own so that no Redis call ever holds up the frame
/// tick: two connections (commands, and subscriptions), reconnected with backoff while Redis is
/// away. The hub's thread hands it `Request`s and collects `Event`s; each time events are
/// waiting, `notify` is called (the transport's `lws_cancel_service`). It sends the node's
/// heartbeat itself, from its own thread, on connecting and at every tick of its timer: a node
/// whose process runs is alive, however busy its hub's thread (a hung hub thread stops renewing
/// its leases instead). It notes when it sent the newest heartbeat Redis confirmed
/// (`beatConfirmedAt`): the node is sure to hold its rooms until `heartbeatExpiry` after that.
final class ClusterLink: @unchecked Sendable {
    enum Request {
        /// PUBLISH; dropped while Redis is away.
        case publish(channel: String, payload: [UInt8])
        /// Kept across reconnects until unsubscribed.
        case subscribe(String)
        case unsubscribe(String)
        /// Any command; its reply comes back as `.reply(tag:)` (an error reply while Redis is away).
        case command([[UInt8]], tag: Int)
        /// A command whose reply nobody wants; dropped while Redis is away.
        case untagged([[UInt8]])
    }

    enum Event {
        case connected
        case disconnected(String)
        case message(channel: String, payload: [UInt8])
        case reply(tag: Int, RedisReply)
        /// Every `timing.period` seconds: the hub's turn to renew leases and look for silent origins.
        case timer
    }

    let address: RedisAddress
    /// The heartbeat commands (`ClusterLeases.heartbeat`); their replies are dropped. Empty: none.
    private let heartbeat: [[[UInt8]]]
    /// The timer's period and the backoff of reconnections.
    private let timing: ClusterTiming
    private let notify: @Sendable () -> Void
    private let logger: Logger
    private let queues = Mutex<(requests: [Request], events: [Event], stopped: Bool)>(([], [], false))
    /// A pipe that wakes the link's `poll`: read end, write end.
    private let wakeDescriptors: (read: Int32, write: Int32)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private let clock: any MediaClock & Sendable
    /// When (on `clock`) the newest heartbeat that Redis answered without an error was sent; the
    /// link's making at first (the node had just talked to Redis).
    private let confirmed: Mutex<Double>

    init(address: RedisAddress, timing: ClusterTiming = ClusterTiming(), heartbeat: [[String]] = [],
         clock: any MediaClock & Sendable = MonotonicClock(), logger: Logger, notify: @escaping @Sendable () -> Void) {
        self.address = address
        self.clock = clock
        confirmed = Mutex(clock.now)
        self.heartbeat = heartbeat.map { $0.map { Array($0.utf8) } }
        self.timing = timing
        self.logger = logger
        self.notify = notify
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fatalError("layercast: cannot make a pipe (errno \(errno))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptors = (fds[0], fds[1])
    }

    deinit {
        close(wakeDescriptors.read)
        close(wakeDescriptors.write)
    }

    /// Starts the link's thread.
    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "layercast-cluster"
        self.thread = thread
        thread.start()
    }

    /// Stops the thread after it has sent what is queued, waiting for it at most `wait` seconds.
    func stop(wait: Double = 1) {
        queues.withLock { $0.stopped = true }
        wake()
        if thread != nil { _ = finished.wait(timeout: .now() + wait) }
    }

    /// Hands requests to the link (any thread).
    func send(_ requests: [Request]) {
        guard !requests.isEmpty else { return }
        queues.withLock { $0.requests += requests }
        wake()
    }

    /// Takes the events waiting for the hub.
    func takeEvents() -> [Event] {
        queues.withLock { state in
            defer { state.events.removeAll(keepingCapacity: true) }
            return state.events
        }
    }

    /// When the newest heartbeat Redis confirmed was sent (any thread).
    var beatConfirmedAt: Double { confirmed.withLock { $0 } }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeDescriptors.write, &one, 1)
    }

    private func post(_ events: [Event]) {
        guard !events.isEmpty else { return }
        queues.withLock { $0.events += events }
        notify()
    }

    // MARK: The link's thread

    private func run() {
        var channels: Set<String> = []
        var connection: (commands: RedisConnection, subscriber: RedisConnection)?
        var backoff = timing.backoff
        var reportedDown = false
        var nextTimer = clock.now + timing.period
        var beatDue = true
        while true {
            var (requests, stopped) = queues.withLock { state in
                defer { state.requests.removeAll(keepingCapacity: true) }
                return (state.requests, state.stopped)
            }
            if stopped && requests.isEmpty { return }
            var events: [Event] = []
            if connection == nil {
                do throws(ClusterError) {
                    let commands = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1.5)
                    let subscriber = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1.5)
                    for channel in channels { try subscriber.append(["SUBSCRIBE", channel]) }
                    try subscriber.flush()
                    connection = (commands, subscriber)
                    backoff = timing.backoff
                    reportedDown = false
                    logger.notice("cluster: connected to Redis", metadata: ["redis": "\(address)"])
                    events.append(.connected)
                    beatDue = true
                } catch {
                    if !reportedDown {
                        logger.error("cluster: Redis unreachable, retrying with backoff", metadata: ["error": "\(error)"])
                        events.append(.disconnected(error.message))
                        reportedDown = true
                    }
                }
            }
            // The heartbeat goes first: before the acquisitions of a node that has just connected.
            var beatSentAt: Double?
            if !heartbeat.isEmpty, beatDue, connection != nil {
                requests.insert(contentsOf: heartbeat.map(Request.untagged), at: 0)
                beatDue = false
                beatSentAt = clock.now
            }
            do throws(ClusterError) {
                try serve(requests, on: connection, channels: &channels, events: &events, beatSentAt: beatSentAt)
                if let subscriber = connection?.subscriber {
                    let wait = max(0, nextTimer - clock.now)
                    if try poll(subscriber.descriptor, wait: wait) {
                        for reply in try subscriber.readAvailable() {
                            if case .array(let parts) = reply, parts.count == 3, parts[0].text == "message",
                               let channel = parts[1].text, case .string(let payload) = parts[2] {
                                events.append(.message(channel: channel, payload: payload))
                            }
                        }
                    }
                } else {
                    _ = try? poll(nil, wait: backoff)
                    backoff = min(backoff * 2, timing.maximumBackoff)
                }
            } catch {
                logger.error("cluster: lost Redis", metadata: ["error": "\(error)"])
                connection = nil
                reportedDown = true
                events.append(.disconnected(error.message))
            }
            let now = clock.now
            if now >= nextTimer {
                events.append(.timer)
                beatDue = true
                nextTimer = max(nextTimer + timing.period, now)
            }
            post(events)
        }
    }

    /// Sends `requests` (pipelined) and collects the replies that were asked for; when they begin
    /// with the heartbeat, sent at `beatSentAt`, its reply confirms it.
    private func serve(_ requests: [Request], on connection: (commands: RedisConnection, subscriber: RedisConnection)?,
                       channels: inout Set<String>, events: inout [Event], beatSentAt: Double?) throws(ClusterError) {
        guard !requests.isEmpty else { return }
        var tags: [Int?] = []
        var subscriptionsChanged = false
        for request in requests {
            switch request {
            case .subscribe(let channel):
                guard channels.insert(channel).inserted else { continue }
                try connection?.subscriber.append(["SUBSCRIBE", channel])
                subscriptionsChanged = true
            case .unsubscribe(let channel):
                guard channels.remove(channel) != nil else { continue }
                try connection?.subscriber.append(["UNSUBSCRIBE", channel])
                subscriptionsChanged = true
            case .publish(let channel, let payload):
                guard let connection else { continue }
                try connection.commands.append([Array("PUBLISH".utf8), Array(channel.utf8), payload])
                tags.append(nil)
            case .untagged(let arguments):
                guard let connection else { continue }
                try connection.commands.append(arguments)
                tags.append(nil)
            case .command(let arguments, let tag):
                guard let connection else {
                    events.append(.reply(tag: tag, .error("Redis is unreachable")))
                    continue
                }
                try connection.commands.append(arguments)
                tags.append(tag)
            }
        }
        guard let connection else { return }
        if subscriptionsChanged { try connection.subscriber.flush() }
        guard !tags.isEmpty else { return }
        try connection.commands.flush()
        for (index, tag) in tags.enumerated() {
            let reply = try connection.commands.reply()
            if index == 0, let beatSentAt, !reply.isError { confirmed.withLock { $0 = max($0, beatSentAt) } }
            if let tag { events.append(.reply(tag: tag, reply)) }
        }
    }

    /// Waits up to `wait` seconds for `descriptor` to be readable or the link to be woken;
    /// whether `descriptor` is readable.
    private func poll(_ descriptor: Int32?, wait: Double) throws(ClusterError) -> Bool {
        var fds = [pollfd(fd: wakeDescriptors.read, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        let ready = Glibc.poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up)))
        if ready < 0 && errno != EINTR { throw ClusterError("poll failed: errno \(errno)") }
        if fds[0].revents != 0 {
            var drained = [UInt8](repeating: 0, count: 256)
            while read(wakeDescriptors.read, &drained, drained.count) > 0 {}
        }
        guard fds.count > 1 else { return false }
        if fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && fds[1].revents & Int16(POLLIN) == 0 {
            throw ClusterError("the Redis connection closed")
        }
        return fds[1].revents & Int16(POLLIN) != 0
    }
}

import LayercastPlatform
import CLibWebSockets
import Foundation
import LayercastJSON
import Synchronization

/// One thread's share of the simulated clients on one libwebsockets client context: opens and
/// closes their connections as the scenario wants its slots filled (the ramp, stages, churn,
/// reconnects), feeds them what arrives, writes what they queue, and closes them all at the
/// deadline. Everything but `snapshot()` runs on the thread in `run()`.
///
/// The context runs on a libev loop of ours (epoll), handed to lws as a foreign loop through its
/// libev event-lib plugin: lws's own loop poll()s every socket on every turn, which for hundreds
/// of mostly idle spectators was most of the loader's CPU.
final class ClientLoop: @unchecked Sendable {
    /// What the clients measured, by population, and the progress window; shared with the progress reader.
    struct Measurements: Sendable {
        var populations: [LoadStats]
        var window = ProgressWindow()
        var open: Int { populations.reduce(0) { $0 + $1.open } }
        var errorCount: Int { populations.reduce(0) { $0 + $1.errorCount } }
        var reconnects: Int { populations.reduce(0) { $0 + $1.reconnects } }
    }

    /// How often the loop wakes to open connections and queue taps and pings.
    static let pollInterval = 0.01
    /// Seconds given to the connections to close after the deadline.
    static let closeGrace = 3.0
    /// The socket receive buffer asked for a client with a read cap, so that the kernel's
    /// buffer (by default up to megabytes on loopback) does not take in the server's frames as
    /// fast as they come and hide the cap from it.
    static let cappedReceiveBuffer: Int32 = 16 * 1024

    let measurements: Mutex<Measurements>
    private let clients: [SimulatedClient]
    private let configuration: LoadConfiguration
    private let scenario: Scenario
    /// Monotonic time of the run's start (the scenario's time 0).
    private let start: Double
    private let deadline: Double
    /// `/ws` paths by client, as C strings, alive as long as the loop.
    private let paths: [UnsafeMutablePointer<CChar>]
    /// The servers (`targets`), and which one each client joins.
    private let targets: [LoadTarget]
    private let targetOf: [Int]
    private let addresses: [UnsafeMutablePointer<CChar>]
    private let hostHeaders: [UnsafeMutablePointer<CChar>]
    private let subprotocol: UnsafeMutablePointer<CChar>
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private var context: OpaquePointer?
    /// The epoll loop the context runs on; released after the context is destroyed.
    private var eventLoop: EventLoop?
    /// Wakes the loop every `pollInterval`.
    private var pollTimer: EventTimer?
    private var finishing = false
    private var finishedAt = Double.infinity

    /// `paths[i]` is client i's `/ws` path and query; it joins `targets[client.index % targets.count]`.
    init(clients: [SimulatedClient], paths: [String], targets: [LoadTarget], scenario: Scenario, configuration: LoadConfiguration,
         start: Double, deadline: Double) throws(LoadError) {
        self.clients = clients
        self.configuration = configuration
        self.scenario = scenario
        self.start = start
        self.deadline = deadline
        measurements = Mutex(Measurements(populations: Array(repeating: LoadStats(), count: scenario.populations.count)))
        self.paths = paths.map { strdup($0)! }
        self.targets = targets
        targetOf = clients.map { $0.index % targets.count }
        addresses = targets.map { strdup($0.host)! }
        hostHeaders = targets.map { strdup($0.hostHeader)! }
        subprotocol = strdup("layercast.v1")!
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(subprotocol)
        protocols[0].callback = layercastLoadCallback
        protocols[0].rx_buffer_size = 64 * 1024

        var info = lws_context_creation_info()
        info.port = -1  // CONTEXT_PORT_NO_LISTEN: a client-only context
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.timeout_secs = 10
        // No fd_limit_per_thread: below `ulimit -n` it makes lws 4.1 find a connection from its
        // socket by scanning its whole table (wsi_from_fd), on every event; left unset, the table
        // is as long as the limit (raised for the clients in LoadRun) and indexed by socket.
        if configuration.permessageDeflate { info.extensions = permessageDeflateExtensions }
        guard let eventLoop = EventLoop() else { throw LoadError("libev could not create an event loop") }
        self.eventLoop = eventLoop
        guard let context = eventLoop.createContext(&info) else { throw LoadError("libwebsockets could not create a client context on libev (is libwebsockets-evlib-ev installed?)") }
        self.context = context
        pollTimer = EventTimer(on: eventLoop) { [unowned self] in poll() }
    }

    deinit {
        if let context { lws_context_destroy(context) }
        paths.forEach { free($0) }
        addresses.forEach { free($0) }
        hostHeaders.forEach { free($0) }
        free(subprotocol)
        protocols.deallocate()
    }

    /// Serves until every client has closed after the deadline (or the grace ran out).
    func run() {
        guard let context, let eventLoop else { return }
        schedulePoll()
        while true {
            // One turn: waits for I/O or a timer (the poll timer is at most 10 ms away).
            eventLoop.turn()
            if finishing, clients.allSatisfy({ $0.wsi == nil }) || monotonicClock.now > finishedAt + Self.closeGrace {
                break
            }
        }
        pollTimer = nil
        let now = monotonicClock.now
        measurements.withLock { shared in
            for client in clients where client.state != .closed && client.state != .waiting {
                client.closed(at: min(now, deadline), finished: true, stats: &shared.populations[client.population])
            }
        }
        // A foreign loop outlives the context: lws closes every connection and stops its
        // watchers in lws_context_destroy, then the loop can go.
        lws_context_destroy(context)
        self.context = nil
        self.eventLoop = nil
    }

    // MARK: The poll timer

    private func schedulePoll() {
        pollTimer?.schedule(after: Self.pollInterval)
        // lws runs its own timers (connection timeouts, closes) after serving an event, and its
        // libev timer may be armed late (EventLoop): an event each poll keeps them on time.
        if let context { lws_cancel_service(context) }
    }

    /// Opens the connections now wanted and due, closes those no longer wanted (or whose churn
    /// stay is over), queues due taps and pings, and finishes at the deadline.
    private func poll() {
        let now = monotonicClock.now
        if now >= deadline {
            if !finishing { finish(at: now) }
            schedulePoll()
            return
        }
        let wanted = scenario.populations.indices.map { scenario.wanted(population: $0, at: now - start) }
        for (index, client) in clients.enumerated() {
            let isWanted = client.slot < wanted[client.population]
            switch client.state {
            case .waiting, .closed:
                if isWanted, !client.gone, now >= client.joinAt { connect(index, at: now) }
            case .connecting:
                if !isWanted, !client.leaving, let wsi = client.wsi {
                    client.leave()
                    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
                }
            case .open:
                if (!isWanted || now >= client.leaveAt), !client.leaving, let wsi = client.wsi {
                    client.leave()
                    lws_callback_on_writable(wsi)
                }
            }
        }
        measurements.withLock { shared in
            for client in clients where client.wsi != nil && client.poll(at: now, stats: &shared.populations[client.population]) {
                lws_callback_on_writable(client.wsi)
            }
        }
        for client in clients where client.refillReads(at: now) {
            guard let wsi = client.wsi else { continue }
            client.readPaused = false
            lws_rx_flow_control(wsi, 1)
        }
        schedulePoll()
    }

    /// Opens client `index`'s connection.
    private func connect(_ index: Int, at now: Double) {
        let client = clients[index]
        var info = lws_client_connect_info()
        info.context = context
        let target = targetOf[index]
        info.address = UnsafePointer(addresses[target])
        info.port = Int32(targets[target].port)
        info.path = UnsafePointer(paths[index])
        info.host = UnsafePointer(hostHeaders[target])
        info.protocol = UnsafePointer(subprotocol)
        info.local_protocol_name = UnsafePointer(subprotocol)
        info.ietf_version_or_minus_one = -1
        info.retry_and_idle_policy = ConnectionValidity.none
        info.userdata = Unmanaged.passUnretained(client).toOpaque()
        measurements.withLock { client.connecting(at: now, stats: &$0.populations[client.population]) }
        let wsi = lws_client_connect_via_info(&info)
        if client.state == .connecting(since: now) {
            if let wsi {
                client.wsi = wsi
                if client.readBudget != nil { Self.shrinkReceiveBuffer(of: wsi) }
            } else {
                measurements.withLock { client.closed(at: now, finished: false, stats: &$0.populations[client.population]) }
            }
        }
    }

    /// Gives a capped client's socket `cappedReceiveBuffer`. lws 4.1 has no hook between making
    /// the socket and connecting it, so this is as early as a client gets it: lws has made and
    /// started connecting a loopback target's socket when `lws_client_connect_via_info` returns,
    /// and the buffer bounds what the kernel takes in from then on.
    private static func shrinkReceiveBuffer(of wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var size = cappedReceiveBuffer
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Stops measuring and closes every connection: open ones with 1000, the rest at once.
    private func finish(at now: Double) {
        finishing = true
        finishedAt = now
        for client in clients {
            guard let wsi = client.wsi else { continue }
            if case .open = client.state {
                lws_callback_on_writable(wsi)
            } else {
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            }
        }
    }

    // MARK: Connection events

    func established(_ client: SimulatedClient, _ wsi: OpaquePointer) {
        client.wsi = wsi
        let now = monotonicClock.now
        measurements.withLock { client.established(at: now, stats: &$0.populations[client.population]) }
        if finishing { lws_callback_on_writable(wsi) }
    }

    /// Takes what arrived: pauses reading when the client's read cap is spent, hands it each
    /// whole message, and asks to write when that queued something (an `ack`).
    func receive(_ client: SimulatedClient, _ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard !finishing else { return }
        let now = monotonicClock.now
        if client.read(bytes.count, at: now) {
            client.readPaused = true
            lws_rx_flow_control(wsi, 0)
        }
        let final = lws_is_final_fragment(wsi) != 0
        if client.receiveBuffer.isEmpty, final {
            measurements.withLock { client.receive(bytes, at: now, stats: &$0.populations[client.population], window: &$0.window) }
        } else {
            client.receiveBuffer.append(contentsOf: bytes)
            guard final else { return }
            measurements.withLock { shared in
                client.receiveBuffer.withUnsafeBytes { client.receive($0, at: now, stats: &shared.populations[client.population], window: &shared.window) }
            }
            client.receiveBuffer.removeAll(keepingCapacity: true)
        }
        if !client.outbox.isEmpty { lws_callback_on_writable(wsi) }
    }

    /// Writes the client's oldest queued message, or closes it when the run is over or it leaves.
    func writable(_ client: SimulatedClient, _ wsi: OpaquePointer) -> Int32 {
        if finishing || client.leaving {
            var reason = Array((finishing ? "load test over" : "leaving").utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, &reason, reason.count)
            return -1
        }
        guard let message = client.takeMessage() else { return 0 }
        let text = message.text(headroom: layercast_lws_pre)
        let written = text.withText { lws_write(wsi, $0.baseAddress, $0.count, LWS_WRITE_TEXT) }
        guard written >= text.count else { return -1 }
        measurements.withLock { $0.populations[client.population].bytesOut += text.count }
        if !client.outbox.isEmpty { lws_callback_on_writable(wsi) }
        return 0
    }

    func closed(_ client: SimulatedClient, _ wsi: OpaquePointer) {
        guard client.state != .closed, client.state != .waiting else { return }
        if let current = client.wsi, current != wsi { return }  // an earlier connection of a client that joined again
        let now = monotonicClock.now
        measurements.withLock { client.closed(at: min(now, deadline), finished: finishing, stats: &$0.populations[client.population]) }
    }
}

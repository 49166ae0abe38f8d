import CLibWebSockets
import Foundation
import LayercastEngine
import LayercastHub
import LayercastPlatform
import LayercastSceneAPI
import LayercastWire
import Logging
import Synchronization

/// The libwebsockets transport of a `Hub` (`Application` assembles the two). One lws context serves `public/`,
/// the JSON API and the `layercast.v1` WebSocket handshake; lws events become hub calls. Once a
/// WebSocket is established the server reads its frames itself (Server+Inbound.swift) and writes
/// the hub's messages with its own `send` (Server+FrameWrite.swift), lws keeping what the kernel
/// does not take. The thread that calls `run()` owns every lws object and the hub;
/// other threads may only call `requestStop()`.
public final class Server: @unchecked Sendable {
    public let configuration: ServerConfiguration
    /// The scenes whose images and preloads the server serves.
    let scenes: SceneRegistry
    /// The port actually listened on (the chosen one when configured as 0).
    public private(set) var port = 0
    let logger: Logger
    let files: StaticFiles
    /// The files of `files` as served, read and compressed once each.
    let staticCache = StaticFileCache()
    let origins: OriginPolicy
    /// The HTTP API; set by `listen(hub:identities:)`.
    private(set) var routes: APIRoutes!
    /// Sent with every HTTP answer (lws adds them to the ones it builds, `vhostHeaders`); static
    /// files and scene images send their own `Cache-Control` in place of this `no-cache`.
    let securityHeaders: [(name: String, value: String)]
    private let vhostHeaders: VhostHeaders
    /// Connections held until their next request head has passed `RequestFraming`.
    let gate = RequestGate()
    /// Rooms, clients and their rules; set by `listen(hub:identities:)`, the hub being made with
    /// this server as its transport.
    public private(set) var hub: Hub!
    /// Called on the service thread each time another thread has called `cancelService()`.
    public var onServiceWake: (() -> Void)?

    private var context: OpaquePointer?
    /// The libev loop (epoll) the context runs on, with the tick's and the gate's timers: lws's
    /// own loop `poll`s every socket on every turn.
    let eventLoop: EventLoop
    private lazy var tickTimer = EventTimer(on: eventLoop) { [unowned self] in tick() }
    lazy var gateTimer = EventTimer(on: eventLoop) { [unowned self] in inspectHeldRequests() }
    /// The listening socket made here when the port is shared (`sharesPort`).
    private var listener: SharedListener?
    /// The lws protocol of `listener`'s raw descriptor.
    static let listenerProtocol = "layercast-listen"
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let stopRequested = Atomic<Bool>(false)
    /// Compresses each message once for every client that took permessage-deflate.
    let deflater = MessageDeflater()
    /// The refusals and failures this transport counts, which `/metrics` shows among the hub's families.
    var transportMetrics = TransportMetrics()
    private var stopping = false
    private var tickIndex = 0
    private var tickOrigin = 0.0
    /// Whether the hub is ticking: its wakes are then collected in `tickWakes`, not polled for.
    private var ticking = false
    /// The clients the hub woke during its tick, in order (a client may be there more than once).
    private var tickWakes: [ClientID] = []
    /// Every connection lws has told of, by wsi: made in `hold`, removed in `forget` alone.
    var connections: [OpaquePointer: Connection] = [:]
    /// The WebSockets whose close has begun (`Connection.closingDeadline`), which each tick looks
    /// at (Server+Closing.swift). They are no longer hub clients.
    var closing: Set<OpaquePointer> = []
    /// The connections whose POST body is arriving (`Connection.pendingPost`), which each tick looks at.
    var posting: Set<OpaquePointer> = []
    /// What one `recv` of a client's socket reads into.
    var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// How many connections are hub clients (`Connection.client`). The frame path looks at no
    /// record: a client's id carries its wsi (`ClientID.handle`) and its wsi's session data its number.
    var hubClients = 0
    private var nextClient: Int
    let proxies: TrustedProxies
    /// Whether the log has said once that a proxy's X-Forwarded-For was not trusted.
    var warnedOfUntrustedProxy = false
    /// Who a handshake's join names; set by `listen(hub:identities:)`.
    private(set) var identities: IdentityPolicy!

    /// A transport serving `scenes`' images, not yet listening; throws when the public directory
    /// or a trusted proxy is unusable.
    public init(configuration: ServerConfiguration, scenes: SceneRegistry, logger: Logger) throws(ServerError) {
        self.configuration = configuration
        self.scenes = scenes
        self.logger = logger
        nextClient = configuration.firstClientNumber
        files = try StaticFiles(directory: configuration.publicDirectory)
        origins = OriginPolicy(allowed: configuration.allowedOrigins)
        securityHeaders = [("content-security-policy", origins.frameAncestors), ("x-content-type-options", "nosniff"),
                           ("cache-control", "no-cache")]
        // One request per connection (Server+Gate.swift): every HTTP answer says so.
        vhostHeaders = VhostHeaders(securityHeaders + [("connection", "close")])
        proxies = try TrustedProxies(configuration.trustedProxies)
        protocols = .allocate(capacity: 4)
        protocols.initialize(repeating: lws_protocols(), count: 4)
        protocols[0].name = UnsafePointer(strdup("http"))
        protocols[0].callback = layercastServiceCallback
        protocols[1].name = UnsafePointer(strdup(Server.subprotocol))
        protocols[1].callback = layercastServiceCallback
        protocols[1].rx_buffer_size = ClientMessage.maxBytes
        protocols[1].per_session_data_size = 2 * MemoryLayout<Int>.size  // the hub client's number and its ClientID.transportFlags
        protocols[1].tx_packet_size = 256 * 1024
        protocols[2].name = UnsafePointer(strdup(Self.listenerProtocol))
        protocols[2].callback = layercastServiceCallback

        guard let eventLoop = EventLoop() else { throw .listen("libev could not create an event loop") }
        self.eventLoop = eventLoop
    }

    /// Serves `hub` (made with this server as its transport), its HTTP API and the joins
    /// `identities` name, and binds the listening socket; throws when the address is unusable.
    public func listen(hub: Hub, identities: IdentityPolicy) throws(ServerError) {
        self.hub = hub
        self.identities = identities
        routes = APIRoutes(hub: hub)
        lws_set_log_level(LLL_ERR | LLL_WARN, nil)
        var info = lws_context_creation_info()
        if configuration.sharesPort {
            listener = try SharedListener(host: configuration.host, port: configuration.port)
            info.port = CONTEXT_PORT_NO_LISTEN_SERVER
        } else {
            info.port = Int32(configuration.port)
        }
        let iface = strdup(configuration.host)
        defer { free(iface) }
        info.iface = UnsafePointer(iface)
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.timeout_secs = 10
        info.headers = UnsafePointer(vhostHeaders.list)
        if !configuration.host.contains(":") { info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        if configuration.permessageDeflate { info.extensions = permessageDeflateExtensions }
        guard let context = eventLoop.createContext(&info) else {
            throw .listen("cannot listen on \(configuration.host):\(configuration.port) (in use, or not an address of this machine; or libwebsockets-evlib-ev is missing)")
        }
        self.context = context
        port = Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")))
        if let listener, let vhost = lws_get_vhost_by_name(context, "default") {
            var fd = lws_sock_file_fd_type()
            fd.filefd = listener.descriptor
            guard lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_RAW_FILE_DESC, fd, Self.listenerProtocol, nil) != nil else {
                throw .listen("libwebsockets would not poll the shared listening socket")
            }
            port = listener.port
        }
    }

    deinit {
        if let context { lws_context_destroy(context) }
        free(UnsafeMutableRawPointer(mutating: protocols[0].name))
        free(UnsafeMutableRawPointer(mutating: protocols[1].name))
        free(UnsafeMutableRawPointer(mutating: protocols[2].name))
        protocols.deallocate()
    }

    /// Unsent bytes in a client's socket above which it counts as not keeping up (about two
    /// seconds of radar deltas; a full frame of any shipped scene fits below it).
    static let unsentLimit = 32 * 1024

    /// Asks the kernel to take no more for a client's socket while `unsentLimit` bytes are
    /// unsent (TCP_NOTSENT_LOWAT: `send` takes part of a frame or none, and lws keeps the rest),
    /// and to report it writable again once at most half of that is left (poll halves the
    /// threshold), so that no write needs a system call to check it. False when refused.
    static func limitUnsent(_ wsi: OpaquePointer) -> Bool {
        setOption(wsi, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, Int32(unsentLimit + 1))
    }

    /// Seconds without traffic after which the kernel probes a client's connection, and the
    /// probes' interval and count: a peer gone without a word is closed within 90 s.
    static let keepAliveIdle: Int32 = 60, keepAliveInterval: Int32 = 10, keepAliveProbes: Int32 = 3

    /// Turns on the kernel's TCP keepalive for a client's socket (`keepAliveIdle`…), in place of
    /// lws's PING after 300 s, which is off (`ConnectionValidity`). False when refused.
    static func keepAlive(_ wsi: OpaquePointer) -> Bool {
        let tcp = Int32(IPPROTO_TCP)
        return setOption(wsi, SOL_SOCKET, SO_KEEPALIVE, 1) && setOption(wsi, tcp, TCP_KEEPIDLE, keepAliveIdle)
            && setOption(wsi, tcp, TCP_KEEPINTVL, keepAliveInterval) && setOption(wsi, tcp, TCP_KEEPCNT, keepAliveProbes)
    }

    /// Sets an integer option of a client's socket; false when refused.
    private static func setOption(_ wsi: OpaquePointer, _ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var value = value
        return setsockopt(lws_get_socket_fd(wsi), level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// The WebSocket subprotocol of docs/protocol.md.
    static let subprotocol = "layercast.v1"

    /// The URL to open in a browser.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)/"
    }

    /// Serves until `requestStop()`, then closes every WebSocket with 1001 (going away).
    public func run() {
        guard let context else { return }
        tickOrigin = monotonicClock.now
        scheduleTick()
        while !stopping { eventLoop.turn() }
        hub.stop()
        // The closes go out as lws drains them; `wake` bounds each turn, the tick being over.
        let wake = EventTimer(on: eventLoop) {}
        let deadline = monotonicClock.now + 2
        while hubClients > 0 || !closing.isEmpty, monotonicClock.now < deadline {
            wake.schedule(after: 0.05)
            eventLoop.turn()
        }
        tickTimer.cancel()
        gateTimer.cancel()
        // lws closes every connection and stops its watchers here; the loop goes with the server.
        lws_context_destroy(context)
        self.context = nil
    }

    /// Asks the service thread to stop; safe from any thread and from signal handlers' queues.
    public func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        if let context { lws_cancel_service(context) }
    }

    /// The shared listening socket has connections waiting: each becomes an lws connection.
    func acceptShared() {
        guard let listener, let context, let vhost = lws_get_vhost_by_name(context, "default") else { return }
        listener.acceptAll(into: vhost)
    }

    /// Wakes the service thread, which then calls `onServiceWake`; safe from any thread while
    /// the server runs.
    public func cancelService() {
        if let context { lws_cancel_service(context) }
    }

    /// Called on the service thread after `lws_cancel_service`.
    func serviceWasCancelled() {
        if stopRequested.load(ordering: .sequentiallyConsistent) { stopping = true }
        hub.deliverLedgerAnswers()
        onServiceWake?()
    }

    // MARK: Ticks

    private func scheduleTick() {
        guard !stopping else { return }
        let interval = hub.tickInterval
        tickIndex += 1
        var due = tickOrigin + Double(tickIndex) * interval
        let now = monotonicClock.now
        if due < now - interval {  // overloaded: skip missed ticks instead of bursting
            tickIndex = Int(((now - tickOrigin) / interval).rounded(.up))
            due = tickOrigin + Double(tickIndex) * interval
        }
        tickTimer.schedule(after: due - now)
    }

    /// The frame timer fired: slow request bodies are answered, the hub ticks (writing each client
    /// that can take its frame at once, through `write(_:to:)`), and the clients it woke instead are
    /// written right after.
    func tick() {
        let now = monotonicClock.now
        expireSlowBodies(now: now)
        expireClosings(now: now)
        ticking = true
        hub.tick()
        ticking = false
        writeWoken()
        scheduleTick()
        // lws runs its own timers (connection timeouts, closes) after serving an event, and its
        // libev timer may be armed late (EventLoop): an event each tick keeps them within a tick.
        if let context { lws_cancel_service(context) }
    }

    /// Writes each client the hub woke during its tick (for an event, or a frame it could not take
    /// at once) straight after the tick: one `send`, without first waiting for the event loop to
    /// report its socket writable. A socket whose kernel buffer is full takes part of the frame or
    /// none, and lws keeps the rest and sends it when the socket drains; until then the client is
    /// only woken through lws's writable callback, and gets the newest frame in full from there.
    /// A close is also left to that callback, which alone can send one.
    private func writeWoken() {
        for id in tickWakes {
            guard let wsi = id.handle else { continue }
            guard canWrite(id) else {
                lws_callback_on_writable(wsi)
                continue
            }
            switch hub.nextWrite(for: id) {
            case nil:
                break
            case .message(let message):
                _ = write(message, to: id)
            case .close(let code, let reason):
                connections[wsi]?.closeDue = (code, reason)
                lws_callback_on_writable(wsi)
            }
        }
        tickWakes.removeAll(keepingCapacity: true)
    }

    // MARK: WebSocket clients

    /// An established WebSocket becomes a hub client with the join its handshake asked for.
    func establish(_ wsi: OpaquePointer) {
        if !Self.limitUnsent(wsi) { logger.warning("TCP_NOTSENT_LOWAT refused: slow clients will queue more than 32 KiB") }
        if !Self.keepAlive(wsi) { logger.warning("TCP keepalive refused: a client that vanished in a still room stays until it is written to") }
        let connection = self.connection(wsi)
        let pending = connection.pendingJoin ?? (.failure(ProtocolError(.badField, "missing join request")), "")
        connection.pendingJoin = nil
        let flags = configuration.permessageDeflate && Self.takesDeflate(wsi) ? Self.deflates : 0
        let id = ClientID(nextClient, handle: wsi, transportFlags: flags)
        nextClient += 1
        connection.client = id
        hubClients += 1
        lws_wsi_user(wsi)?.storeBytes(of: id.number, as: Int.self)
        lws_wsi_user(wsi)?.storeBytes(of: Int(flags), toByteOffset: MemoryLayout<Int>.size, as: Int.self)
        startReading(wsi, connection, deflates: flags != 0)
        hub.connect(id, join: pending.request, address: pending.address)
    }

    /// The hub client on `wsi`, from its session data; nil before it is established.
    func client(_ wsi: OpaquePointer) -> ClientID? {
        guard let data = lws_wsi_user(wsi), case let number = data.load(as: Int.self), number > 0 else { return nil }
        let flags = data.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
        return ClientID(number, handle: wsi, transportFlags: UInt8(truncatingIfNeeded: flags))
    }

    /// Writes the hub's next message to a writable client, or its close. Returns -1 to close.
    func writable(_ wsi: OpaquePointer) -> Int32 {
        if let connection = connections[wsi] {
            if let due = connection.closeDue {
                connection.closeDue = nil
                return close(wsi, code: Int32(due.code), reason: due.reason)
            }
            if writePendingPong(wsi, connection) { return 0 }
        }
        guard let id = client(wsi) else { return 0 }
        switch hub.nextWrite(for: id) {
        case nil: return 0
        case .message(let message): return writeFrame(message, to: wsi, deflates: id.deflates) ? 0 : -1
        case .close(let code, let reason): return close(wsi, code: Int32(code), reason: reason)
        }
    }

    /// `ClientID.transportFlags`: the connection took permessage-deflate.
    static let deflates: UInt8 = 1

    /// The record of `wsi`, made the first time it is asked for (at lws's first callback of the
    /// connection, `hold`).
    func connection(_ wsi: OpaquePointer) -> Connection {
        if let known = connections[wsi] { return known }
        let made = Connection()
        connections[wsi] = made
        return made
    }

    /// Forgets a closed connection, the one place its record goes: its reader stops and its hub
    /// client, if it still is one, leaves the hub.
    func forget(_ wsi: OpaquePointer) {
        guard let connection = connections.removeValue(forKey: wsi) else { return }
        gate.held.remove(wsi)
        closing.remove(wsi)
        posting.remove(wsi)
        connection.inbound?.watcher?.stop()
        leaveHub(connection)
    }

    /// The connection's hub client, if it has one, leaves the hub.
    func leaveHub(_ connection: Connection) {
        guard let id = connection.client else { return }
        connection.client = nil
        hubClients -= 1
        hub.disconnect(id)
    }

    /// The protocol id (`c…`) of the client on `wsi`, for log lines.
    func clientName(_ wsi: OpaquePointer) -> String? { connections[wsi]?.client.flatMap(hub.clientName) }

    /// Queues a close frame for `wsi` and begins its close. Returns what the lws callback returns.
    private func close(_ wsi: OpaquePointer, code: Int32, reason: String) -> Int32 {
        var bytes = Array(reason.utf8.prefix(120))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &bytes, bytes.count)
        beginClosing(wsi)
        return -1
    }
}

extension Server: HubTransport {
    public var clock: any MediaClock { monotonicClock }
    public var headroom: Int { Int(layercast_lws_pre) }

    public func wake(_ client: ClientID) {
        guard let wsi = client.handle else { return }
        if ticking { tickWakes.append(client) } else { lws_callback_on_writable(wsi) }
    }

    /// lws holds no part of an earlier frame for the client (which is then sent first).
    public func canWrite(_ client: ClientID) -> Bool {
        guard let wsi = client.handle else { return false }
        return lws_partial_buffered(wsi) == 0
    }

    public func write(_ message: EncodedMessage, to client: ClientID) -> Bool {
        guard let wsi = client.handle, writeFrame(message, to: wsi, deflates: client.deflates) else {
            drop(client)
            return false
        }
        return true
    }

    public func drop(_ client: ClientID) {
        if let wsi = client.handle { lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC) }
    }

    public func writeMetrics(into text: inout PrometheusText) { transportMetrics.write(into: &text) }
}

private extension ClientID {
    /// The connection took permessage-deflate (`Server.deflates` in its flags).
    var deflates: Bool { transportFlags & Server.deflates != 0 }
}

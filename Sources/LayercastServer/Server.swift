import CLibWebSockets
import Foundation
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastScenes
import LayercastWire
import Logging
import Synchronization

/// `layercast serve`: one libwebsockets context serving `public/`, the JSON API and the
/// `layercast.v1` WebSocket. The thread that calls `run()` owns every lws object and every
/// room; other threads may only call `requestStop()`.
public final class Server: @unchecked Sendable {
    public let configuration: ServerConfiguration
    /// The port actually listened on (the chosen one when configured as 0).
    public private(set) var port = 0
    let logger: Logger
    let files: StaticFiles
    let origins: OriginPolicy
    /// Sent with every HTTP answer (lws adds them to the ones it builds, `vhostHeaders`).
    let securityHeaders: [(name: String, value: String)]
    private let vhostHeaders: VhostHeaders
    /// Connections held until their next request head has passed `RequestFraming`.
    let gate = RequestGate()

    private var context: OpaquePointer?
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let timer: UnsafeMutablePointer<layercast_timer>
    private let stopRequested = Atomic<Bool>(false)
    private var stopping = false
    private var tickIndex = 0
    private var tickOrigin = 0.0
    /// When the last tick ran, on the monotonic clock: the time a frame write is recorded at.
    private var tickedAt = 0.0
    private let tickInterval: Double

    var rooms: [String: Room] = [:]
    var connections: [OpaquePointer: Connection] = [:]
    /// Join requests parsed at the handshake with the client's address, taken when the
    /// connection is established.
    var pendingJoins: [OpaquePointer: (request: Result<JoinRequest, ProtocolError>, host: String)] = [:]
    /// POST requests whose bodies are arriving.
    var pendingPosts: [OpaquePointer: PendingPost] = [:]
    /// Taps allowed per player id, over all of a player's connections.
    var playerTaps: [String: RateLimiter] = [:]
    /// Taps allowed per player id during the running rain (its `tapRate`), reset by each rain.
    var rainTaps: [String: RateLimiter] = [:]
    /// What each client address holds and may still do.
    var hostLimits: HostLimits
    let proxies: TrustedProxies
    /// Whether the log has said once that a proxy's X-Forwarded-For was not trusted.
    var warnedOfUntrustedProxy = false
    var metrics = Metrics()
    /// Where rains and awards are committed before anyone hears of them.
    let ledger: any Ledger
    let identities: IdentityPolicy
    private var nextClient = 1
    let startedAt = monotonicSeconds()

    /// Binds the listening socket; throws when the public directory or the address is unusable.
    public init(configuration: ServerConfiguration, logger: Logger) throws(ServerError) {
        self.configuration = configuration
        self.logger = logger
        files = try StaticFiles(directory: configuration.publicDirectory)
        origins = OriginPolicy(allowed: configuration.allowedOrigins)
        securityHeaders = [("content-security-policy", origins.frameAncestors), ("x-content-type-options", "nosniff"),
                           ("cache-control", "no-cache")]
        // One request per connection (Server+Gate.swift): every HTTP answer says so.
        vhostHeaders = VhostHeaders(securityHeaders + [("connection", "close")])
        tickInterval = 1 / Double(min(max(configuration.fps, 1), 120))
        proxies = try TrustedProxies(configuration.trustedProxies)
        hostLimits = HostLimits(rules: configuration.hostLimits)
        do {
            ledger = try (configuration.ledger ?? .sqlite(directory: configuration.dataDirectory)).open()
            let interrupted = try ledger.recoverInterrupted(now: Date())
            if !interrupted.isEmpty { logger.warning("rains interrupted by the last stop", metadata: ["rains": "\(interrupted)"]) }
        } catch {
            throw .ledger("cannot open the ledger in \(configuration.ledger ?? .sqlite(directory: configuration.dataDirectory)): \(error.message)")
        }
        let pseudonymSecret: [UInt8]
        if let secret = configuration.playerIDSecret {
            pseudonymSecret = Array(secret.utf8)
        } else {
            pseudonymSecret = try PlayerIDKey.load(directory: configuration.dataDirectory)
        }
        identities = IdentityPolicy(tokenSecret: configuration.tokenSecret, allowAnonymous: configuration.anonymousAllowed,
                                    pseudonyms: PlayerPseudonyms(secret: pseudonymSecret, showsTokenSubjects: configuration.showTokenSubjects))

        protocols = .allocate(capacity: 3)
        protocols.initialize(repeating: lws_protocols(), count: 3)
        protocols[0].name = UnsafePointer(strdup("http"))
        protocols[0].callback = layercastServiceCallback
        protocols[1].name = UnsafePointer(strdup(Server.subprotocol))
        protocols[1].callback = layercastServiceCallback
        protocols[1].rx_buffer_size = ClientMessage.maxBytes
        protocols[1].tx_packet_size = 256 * 1024
        timer = .allocate(capacity: 1)
        timer.initialize(to: layercast_timer())

        lws_set_log_level(LLL_ERR | LLL_WARN, nil)
        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        let iface = strdup(configuration.host)
        defer { free(iface) }
        info.iface = UnsafePointer(iface)
        info.protocols = UnsafePointer(protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.timeout_secs = 10
        info.headers = UnsafePointer(vhostHeaders.list)
        if !configuration.host.contains(":") { info.options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        if configuration.permessageDeflate { info.extensions = permessageDeflateExtensions }
        guard let context = lws_create_context(&info) else {
            throw .listen("cannot listen on \(configuration.host):\(configuration.port) (in use, or not an address of this machine)")
        }
        self.context = context
        port = Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")))
        timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        gate.timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        if let context { lws_context_destroy(context) }
        free(UnsafeMutableRawPointer(mutating: protocols[0].name))
        free(UnsafeMutableRawPointer(mutating: protocols[1].name))
        protocols.deallocate()
        timer.deallocate()
    }

    /// Unsent bytes in a client's socket above which it counts as not keeping up (about two
    /// seconds of radar deltas; a full frame of any shipped scene fits below it).
    static let unsentLimit = 32 * 1024

    /// Asks the kernel to report a client's socket writable only while at most `unsentLimit`
    /// bytes are unsent (TCP_NOTSENT_LOWAT; poll halves the threshold, hence 2 × (limit + 1)),
    /// so that no write needs a system call to check it. False when the option is refused.
    static func limitUnsent(_ wsi: OpaquePointer) -> Bool {
        var lowWater = Int32(2 * (unsentLimit + 1))
        return setsockopt(lws_get_socket_fd(wsi), Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, &lowWater,
                          socklen_t(MemoryLayout<Int32>.size)) == 0
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
        tickOrigin = monotonicSeconds()
        scheduleTick()
        while !stopping, lws_service(context, 0) >= 0 {}
        stopping = true
        interruptRains()
        for connection in connections.values { lws_callback_on_writable(connection.wsi) }
        let deadline = monotonicSeconds() + 2
        while !connections.isEmpty, monotonicSeconds() < deadline, lws_service(context, 0) >= 0 {}
        lws_sul_cancel(&timer.pointee.sul)
        lws_sul_cancel(&gate.timer.pointee.sul)
        lws_context_destroy(context)
        self.context = nil
        logger.info("stopped")
    }

    /// Asks the service thread to stop; safe from any thread and from signal handlers' queues.
    public func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        if let context { lws_cancel_service(context) }
    }

    /// Called on the service thread after `lws_cancel_service`.
    func serviceWasCancelled() {
        if stopRequested.load(ordering: .sequentiallyConsistent) { stopping = true }
    }

    // MARK: Ticks

    private func scheduleTick() {
        guard let context, !stopping else { return }
        tickIndex += 1
        var due = tickOrigin + Double(tickIndex) * tickInterval
        let now = monotonicSeconds()
        if due < now - tickInterval {  // overloaded: skip missed ticks instead of bursting
            tickIndex = Int(((now - tickOrigin) / tickInterval).rounded(.up))
            due = tickOrigin + Double(tickIndex) * tickInterval
        }
        let delay = lws_usec_t(max(0, (due - now) * 1e6))
        lws_sul_schedule(context, 0, &timer.pointee.sul, layercastTickCallback, delay)
    }

    /// One frame of every room: advance, build, and offer the frame to every client.
    func tick() {
        let now = monotonicSeconds()
        tickedAt = now
        expireSlowBodies(now: now)
        for (key, room) in rooms {
            if room.connections.isEmpty, room.rain?.running == nil {
                let since = room.emptySince ?? now
                room.emptySince = since
                if now - since >= configuration.roomIdleSeconds {
                    rooms[key] = nil
                    logger.info("room closed", metadata: ["scene": "\(room.info.id)", "room": "\(room.name)"])
                    continue
                }
            } else {
                room.emptySince = nil
            }
            room.tick(at: now)
            rainTicked(room, now: now)
            broadcast(room.takeEvents(), in: room, tapArrival: nil)
            for connection in room.connections {
                if connection.lastFrameSent < room.frameNumber - 1, now - connection.lastWrite > configuration.stallTimeoutSeconds {
                    drop(connection, reason: "stalled")
                } else {
                    lws_callback_on_writable(connection.wsi)
                }
            }
        }
        scheduleTick()
    }

    // MARK: Clients

    /// Registers an established WebSocket: joins its room, or queues the error that refuses it.
    func establish(_ wsi: OpaquePointer) {
        if !Self.limitUnsent(wsi) { logger.warning("TCP_NOTSENT_LOWAT refused: slow clients will queue more than 32 KiB") }
        // One compressed fragment per message (lws's default cuts deflated output at 1 KiB);
        // fails harmlessly when the client did not take permessage-deflate.
        if configuration.permessageDeflate { lws_set_extension_option(wsi, "permessage-deflate", "tx_buf_size", "16") }
        let pending = pendingJoins.removeValue(forKey: wsi) ?? (.failure(ProtocolError(.badField, "missing join request")), "")
        let now = monotonicSeconds()
        let id = "c\(nextClient)"
        nextClient += 1
        switch pending.request {
        case .failure(let error):
            let connection = Connection(wsi: wsi, id: id, role: .spectator, host: pending.host, now: now)
            connections[wsi] = connection
            refuse(connection, error, code: Int32(LWS_CLOSE_STATUS_POLICY_VIOLATION.rawValue))
        case .success(let join):
            let connection = Connection(wsi: wsi, id: id, role: join.role, player: join.player, host: pending.host, now: now)
            connections[wsi] = connection
            guard rooms.values.reduce(0, { $0 + $1.connections.count }) < configuration.maxClients else {
                refuse(connection, ProtocolError(.serverFull, "the server is at its limit of \(configuration.maxClients) clients"),
                       code: Int32(layercast_close_try_again_later))
                return
            }
            if let refusal = admitHost(connection, anonymous: join.player?.isAnonymous == true, now: now) {
                refuse(connection, refusal, code: Int32(layercast_close_try_again_later))
                return
            }
            guard rooms["\(join.scene.info.id)/\(join.room)"] != nil || rooms.count < configuration.maxRooms else {
                refuse(connection, ProtocolError(.serverFull, "the server runs its limit of \(configuration.maxRooms) rooms; join one that is open"),
                       code: Int32(layercast_close_try_again_later))
                return
            }
            let room = room(scene: join.scene, name: join.room, now: now)
            connection.room = room
            room.connections.append(connection)
            let welcome = ServerMessage.welcome(room: join.room, scene: room.info, role: join.role.rawValue, client: id,
                                                fps: Int((1 / tickInterval).rounded()), time: room.mediaTime(at: now),
                                                player: join.player.map { welcomePlayer($0, secret: join.mintedSecret) })
            enqueue(EncodedMessage(welcome), to: connection, tapArrival: nil)
            if let rain = room.scene as? RainScene, let phase = rain.phaseEvent(for: id) ?? nextRainEvent(room, now: now, for: id) {
                enqueue(EncodedMessage(ServerMessage.event(phase)), to: connection, tapArrival: nil)
            }
            logger.debug("joined", metadata: ["client": "\(id)", "room": "\(room.info.id)/\(room.name)", "role": "\(join.role.rawValue)"])
        }
    }

    /// The room running `scene` under `name`, created (and ticked to frame 0) when missing.
    func room(scene: any Scene.Type, name: String, now: Double) -> Room {
        let key = "\(scene.info.id)/\(name)"
        if let room = rooms[key] { return room }
        let seed = UInt64.random(in: 0...UInt64.max)
        let room = Room(name: name, now: now) { makeScene(scene, seed: seed) }
        if room.scene is RainScene { room.rain = RainRoomState(now: now) }
        room.maxParticles = configuration.maxParticles
        room.tick(at: now)
        rooms[key] = room
        logger.info("room opened", metadata: ["scene": "\(scene.info.id)", "room": "\(name)"])
        return room
    }

    /// A new instance of `scene`, with the server's configuration for the scenes that take one.
    private func makeScene(_ scene: any Scene.Type, seed: UInt64) -> any Scene {
        switch scene {
        case is RainScene.Type: RainScene(seed: seed, configuration: configuration.rainScene)
        case is BookScene.Type: BookScene(seed: seed, configuration: configuration.bookScene)
        default: scene.init(seed: seed)
        }
    }

    /// Counts `connection` against its address's limits; the refusal when one is reached.
    private func admitHost(_ connection: Connection, anonymous: Bool, now: Double) -> ProtocolError? {
        let rules = configuration.hostLimits
        guard hostLimits.connect(connection.host) else {
            metrics.hostRefusals[.connections, default: 0] += 1
            return ProtocolError(.hostLimit, "your network already holds \(rules.connections) connections to this server; close one and try again")
        }
        connection.holdsHostSlot = true
        guard !anonymous || hostLimits.allowAnonymousJoin(connection.host, at: now) else {
            metrics.hostRefusals[.anonymousJoins, default: 0] += 1
            return ProtocolError(.hostLimit, "more than \(rules.anonymousJoinsPerMinute) guest players joined from your network this minute; try again in a minute")
        }
        return nil
    }

    /// What `welcome` tells a player about itself: public id, name, coins won so far, and the
    /// anonymous id the server made for it (`secret`, only when it brought none).
    private func welcomePlayer(_ player: PublicPlayer, secret: String?) -> JSONValue {
        let total: Int
        do {
            total = try ledger.totalCoins(player: player.id)
        } catch {
            logger.error("ledger read failed", metadata: ["error": "\(error)"])
            total = 0
        }
        var document: JSONObject = ["id": .string(player.id), "name": .string(player.name), "total": .number(Double(total))]
        if let secret { document["secret"] = .string(secret) }
        return .object(document)
    }

    private func refuse(_ connection: Connection, _ error: ProtocolError, code: Int32) {
        metrics.rejected[error.code, default: 0] += 1
        enqueue(EncodedMessage(ServerMessage.error(error)), to: connection, tapArrival: nil)
        connection.closing = (code, error.code.rawValue)
    }

    /// Forgets a closed connection.
    func closed(_ wsi: OpaquePointer) {
        pendingJoins[wsi] = nil
        guard let connection = connections.removeValue(forKey: wsi) else { return }
        if connection.holdsHostSlot { hostLimits.disconnect(connection.host, at: monotonicSeconds()) }
        connection.room?.connections.removeAll { $0 === connection }
        connection.room = nil
    }

    /// Closes a connection at once without a goodbye (it is not taking data).
    func drop(_ connection: Connection, reason: String) {
        metrics.clientsDropped[reason, default: 0] += 1
        logger.notice("dropping client", metadata: ["client": "\(connection.id)", "reason": "\(reason)"])
        connection.room?.connections.removeAll { $0 === connection }
        connection.room = nil
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    func enqueue(_ message: EncodedMessage, to connection: Connection, tapArrival: Double?) {
        guard connection.outbox.count < Connection.outboxLimit else {
            drop(connection, reason: "backlog")
            return
        }
        connection.outbox.append(.init(message: message, tapArrival: tapArrival))
        lws_callback_on_writable(connection.wsi)
    }

    /// Sends scene events to their audience (the room, or the client that caused them), each
    /// encoded once.
    func broadcast(_ events: [SceneEvent], in room: Room, tapArrival: Double?, tapper: Connection? = nil) {
        for event in events {
            let message = EncodedMessage(ServerMessage.event(event))
            for connection in room.connections where event.audience == .room || connection.id == event.client {
                enqueue(message, to: connection, tapArrival: connection === tapper ? tapArrival : nil)
            }
        }
    }

    /// Writes one message to a writable connection: its outbox first, then the newest frame
    /// (a delta when it has the frame before, else in full). Returns -1 to close it.
    func writable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections[wsi] else { return 0 }
        if stopping {
            return close(wsi, code: Int32(LWS_CLOSE_STATUS_GOINGAWAY.rawValue), reason: "server shutting down")
        }
        if !connection.outbox.isEmpty {
            let now = monotonicSeconds()
            let item = connection.outbox.removeFirst()
            guard item.message.write(to: wsi) else { return -1 }
            metrics.bytesSent += item.message.count
            connection.lastWrite = now
            if let arrival = item.tapArrival { metrics.tapLatency.observe(now - arrival) }
            lws_callback_on_writable(wsi)
            return 0
        }
        if let closing = connection.closing {
            return close(wsi, code: closing.code, reason: closing.reason)
        }
        guard let room = connection.room, room.frameNumber > connection.lastFrameSent else { return 0 }
        // Latest wins at the socket too: while the kernel still holds a backlog of more than
        // `unsentLimit` for this client, its socket is not writable (`limitUnsent`) and this is
        // not called; once it drains, the client gets the newest frame in full.
        // `--drop-frames-every N` (testing the load tool): such frames are not sent; the next goes in full.
        if let every = configuration.dropFramesEvery, room.frameNumber % every == 0 { return 0 }
        let message: EncodedMessage
        if connection.lastFrameSent >= 0, connection.lastFrameSent == room.frameNumber - 1, let delta = room.deltaFrame(&metrics) {
            message = delta
        } else {
            if connection.lastFrameSent >= 0 { metrics.framesSkipped += room.frameNumber - connection.lastFrameSent - 1 }
            message = room.fullFrame(&metrics)
        }
        guard message.write(to: wsi) else { return -1 }
        metrics.bytesSent += message.count
        connection.lastFrameSent = room.frameNumber
        connection.lastWrite = tickedAt  // the frame's tick: no clock read per client per frame
        return 0
    }

    private func close(_ wsi: OpaquePointer, code: Int32, reason: String) -> Int32 {
        var bytes = Array(reason.utf8.prefix(120))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &bytes, bytes.count)
        return -1
    }
}

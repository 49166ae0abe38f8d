import Foundation
import LayercastEngine
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastWire
import Logging

/// The server without its sockets: rooms and their clients, join rules, input and its limits,
/// the tick, admin commands, and each client's outbound queue (docs/architecture.md).
///
/// Threading: a hub is used from one thread, the one its transport calls it on; every call,
/// and every call it makes to its transport and its scenes' controllers, happens there. Its
/// ledger's calls run on the ledger's own thread (`LedgerServices`), and their answers come back
/// here (`deliverLedgerAnswers`, each tick and when the transport is woken).
public final class Hub {
    public let configuration: HubConfiguration
    let transport: any HubTransport
    /// The transport's clock (`HubTransport.clock`), read once at init: the time base of ticks,
    /// rooms, rate limits, stalls and the ledger's timings.
    let clock: any MediaClock
    let logger: Logger
    let identities: IdentityPolicy
    /// Where rounds and awards are read, on the ledger's thread; claims and rounds are written
    /// through `services` (in production, the same `LedgerServices`).
    let ledger: LedgerServices
    let services: SceneServices

    var rooms: [String: Room] = [:]
    var clients: [ClientID: Client] = [:]
    /// Taps allowed per player id, over all of a player's connections.
    var playerTaps: [String: RateLimiter] = [:]
    /// What each client address holds and may still do.
    var addressLimits: AddressLimits
    /// The counters of `/metrics`, its transport's write path's among them; the transport's other
    /// families it writes itself (`HubTransport.writeMetrics`).
    public var metrics: Metrics
    /// When the last tick ran (or the hub was made): the time a frame write is recorded at.
    private var tickedAt: Double
    /// Set by `stop()`: every client is closed with 1001 at its next write.
    public private(set) var stopping = false
    /// The cluster this hub is a node of; nil for one process alone (set before the first client).
    public var cluster: (any HubCluster)?
    /// Admin commands waiting for a room's origin to answer, by id.
    var pendingCommands: [Int: PendingCommand] = [:]
    var nextCommand = 0

    /// A hub on `transport`, reading from `ledger` and committing through `services`.
    public init(configuration: HubConfiguration, transport: any HubTransport, identities: IdentityPolicy, ledger: LedgerServices,
                services: SceneServices, logger: Logger) {
        self.configuration = configuration
        self.transport = transport
        clock = transport.clock
        self.identities = identities
        self.ledger = ledger
        self.services = services
        ledger.clock = { [clock] in clock.now }
        self.logger = logger
        addressLimits = AddressLimits(rules: configuration.addressLimits)
        tickedAt = clock.now
        metrics = Metrics(tapRules: configuration.scenes.tapRules)
    }

    /// Frames per second, as `welcome` announces it.
    public var fps: Int { Int((1 / configuration.tickInterval).rounded()) }

    /// Seconds between ticks; the transport calls `tick()` at this period.
    public var tickInterval: Double { configuration.tickInterval }

    // MARK: Ticks

    /// One frame of every room: advance, build, tell the scene controllers, and wake every client;
    /// empty rooms idle for `roomIdleSeconds` are closed and stalled clients dropped. A room whose
    /// takeover waits on the ledger makes no frame until it is answered (`place`).
    public func tick() {
        let now = clock.now
        tickedAt = now
        cluster?.ticked()
        deliverLedgerAnswers()
        if !pendingCommands.isEmpty { expireCommands(at: now) }
        for (key, room) in rooms {
            if room.clients.isEmpty, room.remoteClients == 0, room.controller?.isBusy != true {
                let since = room.emptySince ?? now
                room.emptySince = since
                if now - since >= configuration.roomIdleSeconds {
                    rooms[key] = nil
                    cluster?.closed(key, origin: room.source == .scene)
                    logger.info("room closed", metadata: ["scene": "\(room.sceneID)", "room": "\(room.name)"])
                    continue
                }
            } else {
                room.emptySince = nil
            }
            if room.source == .scene, let controller = room.controller, !room.awaitsTakeover {
                retryTakeover(of: room, at: now)
                room.tick(at: now)
                publishFrame(of: room, at: now)
                broadcast(controller.ticked(in: room), in: room, tapArrival: nil)
                broadcast(room.takeEvents(), in: room, tapArrival: nil)
            }
            for client in room.clients {
                // Frames wait for a client that lacks the newest list, and keepalives for one that is due one.
                let waitingSince = client.lastFrameSent < room.stillSince ? client.lastWrite : client.lastFrameAt + Self.keepaliveInterval
                if client.lastFrameSent < room.frameNumber - 1, now - waitingSince > configuration.stallTimeoutSeconds {
                    drop(client, reason: "stalled")
                } else {
                    writeFromTick(client)
                }
            }
        }
    }

    /// Begins the stop: records what it interrupts (a running round) and wakes every client, whose
    /// next write is a close with 1001 (going away).
    public func stop() {
        stopping = true
        for room in rooms.values { room.controller?.stopping() }
        for id in clients.keys { transport.wake(id) }
    }

    // MARK: Rooms

    /// The room running `scene` under `name`, created (and ticked to frame 0) when missing.
    func room(scene: any Scene.Type, name: String, now: Double) -> Room {
        let key = "\(scene.info.id)/\(name)"
        if let room = rooms[key] { return room }
        let options = configuration.sceneOptions[scene.info.id] ?? SceneOptionValues(defaultsOf: scene)
        let controller = scene.controller(seed: UInt64.random(in: 0...UInt64.max), options: options, services: services)
        let room = Room(name: name, controller: controller, now: now, transport: transport, clock: clock,
                        maxParticles: configuration.maxParticles, placing: cluster != nil)
        if room.source == .scene { room.tick(at: now) }
        rooms[key] = room
        logger.info("room opened", metadata: ["scene": "\(scene.info.id)", "room": "\(name)"])
        cluster?.opened(key)
        return room
    }

    // MARK: Writes

    /// What to write to the client `id` now that it can take a message (see `nextWrite(_:)`); nil
    /// for a client the hub does not have. The transport writes it at once.
    public func nextWrite(for id: ClientID) -> HubWrite? {
        guard let client = clients[id] else { return nil }
        return nextWrite(client)
    }

    /// Writes `client` its outbox and the newest frame from the tick, at once while the transport
    /// can take them; otherwise, and for a close, wakes it.
    private func writeFromTick(_ client: Client) {
        while transport.canWrite(client.id) {
            guard let write = nextWrite(client) else { return }
            guard case .message(let message) = write else { break }  // the transport's own path sends a close
            guard transport.write(message, to: client.id) else { return }
        }
        transport.wake(client.id)
    }

    /// The longest a client of a still room goes without a frame: then it gets the newest tick's
    /// empty delta, a keepalive for its clock (protocol.md, "frame": `sparse`).
    public static let keepaliveInterval = 1.0

    /// Whether a keepalive is due at this tick after a frame at `time`: `keepaliveInterval` to
    /// the nearest tick, so that a room of 30 frames a second sends every 30th still tick.
    func keepaliveDue(since time: Double) -> Bool {
        tickedAt - time >= Self.keepaliveInterval - configuration.tickInterval / 2
    }

    /// What to write to `client` now: its outbox first, then the newest frame (a delta when it holds
    /// a frame the delta applies to, else in full; nothing for a tick that changed nothing, but a
    /// keepalive every `keepaliveInterval`), or its close. Nil when there is nothing to write.
    private func nextWrite(_ client: Client) -> HubWrite? {
        let id = client.id
        if stopping { return .close(code: CloseCode.goingAway, reason: "server shutting down") }
        if !client.outbox.isEmpty {
            let now = clock.now
            let item = client.outbox.removeFirst()
            // Back to Swift's shared empty storage: the frame path's emptiness check then reads no
            // memory of this client's own (a cache miss per client per frame otherwise).
            if client.outbox.isEmpty { client.outbox = [] }
            metrics.bytesSent += item.message.count
            client.lastWrite = now
            if let arrival = item.tapArrival { metrics.tapLatency.observe(now - arrival) }
            transport.wake(id)
            return .message(item.message)
        }
        if let closing = client.closing { return .close(code: closing.code, reason: closing.reason) }
        guard let room = client.room, room.frameNumber > client.lastFrameSent else { return nil }
        // Latest wins: a client that missed frames gets the newest in full. (The transport holds
        // a slow client back while the kernel or lws still has part of its last frame.)
        // `--drop-frames-every N` (testing the load tool): such frames are not sent; the next goes in full.
        if let every = configuration.dropFramesEvery, room.frameNumber % every == 0 { return nil }
        // Frames wait while its window is full; it is then sent the newest, from the last it was sent.
        if client.acknowledges, !client.acks.isOpen { return nil }
        let message: EncodedMessage
        if room.deltaApplies(to: client.lastFrameSent), let delta = room.deltaFrame(&metrics) {
            // A tick that changed nothing (here or, relayed, on the origin) is only a keepalive.
            if room.isStill, !keepaliveDue(since: client.lastFrameAt) { return nil }
            message = delta
        } else {
            if client.lastFrameSent >= 0 { metrics.framesSkipped += room.frameNumber - client.lastFrameSent - 1 }
            // One that acknowledges holds the list of the last frame it was sent: a delta from it,
            // when the room still has that list and the delta is the smaller.
            message = client.acknowledges ? room.catchUpFrame(from: client.lastFrameSent, &metrics) : room.fullFrame(&metrics)
        }
        metrics.bytesSent += message.count
        if client.acknowledges { client.acks.sent(room.frameNumber, at: tickedAt) }
        client.lastFrameSent = room.frameNumber
        client.highestFrameSent = max(client.highestFrameSent, room.frameNumber)
        client.lastWrite = tickedAt  // the frame's tick: no clock read per client per frame
        client.lastFrameAt = tickedAt
        return .message(message)
    }

    /// Queues `message` for `client` (dropping a client whose outbox is full) and wakes it.
    func enqueue(_ message: EncodedMessage, to client: Client, tapArrival: Double?) {
        guard client.outbox.count < Client.outboxLimit else {
            drop(client, reason: "backlog")
            return
        }
        client.outbox.append(.init(message: message, tapArrival: tapArrival))
        transport.wake(client.id)
    }

    /// Encodes `value` once for any number of clients.
    func encoded(_ value: JSONValue) -> EncodedMessage { EncodedMessage(value, headroom: transport.headroom) }

    /// Sends scene events to their audience (the room, or the client that caused them), each
    /// encoded once.
    /// On an origin, room events go to the other nodes too, and a client's own events to the
    /// node it is on.
    func broadcast(_ events: [SceneEvent], in room: Room, tapArrival: Double?, tapper: Client? = nil) {
        for event in events {
            let message = encoded(ServerMessage.event(event))
            var delivered = false
            for client in room.clients where event.audience == .room || client.name == event.client {
                enqueue(message, to: client, tapArrival: client === tapper ? tapArrival : nil)
                delivered = true
            }
            guard let cluster, room.source == .scene else { continue }
            if event.audience == .room {
                if room.publishUntil > clock.now { cluster.publish(event: message, in: room.key) }
            } else if !delivered, let client = event.client, let node = room.remoteClientNodes[client] {
                cluster.deliver(message, to: client, on: node)
            }
        }
    }

    /// Closes a client at once without a goodbye (it is not taking data).
    func drop(_ client: Client, reason: String) {
        metrics.clientsDropped[reason, default: 0] += 1
        logger.notice("dropping client", metadata: ["client": "\(client.name)", "reason": "\(reason)"])
        client.room?.remove(client)
        client.room = nil
        transport.drop(client.id)
    }
}

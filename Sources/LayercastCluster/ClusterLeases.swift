import LayercastHub

/// The leases of the rooms open on this node (docs/cluster.md, "Placement and leases"): the
/// Redis commands that acquire, renew and release one; when an origin renews them (every
/// `renewal`, well within the `lease` they last); and the takeover decision: a relay whose room
/// has clients and has been silent for `silence` tries to acquire the room's lease, which it wins only once the
/// origin's lease has expired.
struct ClusterLeases {
    /// A command about one room's lease.
    enum Command: Equatable {
        /// Set the lease to this node if nobody holds it, for `lease`; answers the holder.
        case acquire(String)
        /// Extend the lease if this node holds it; answers the holder (nil when nobody does).
        case renew(String)
        /// Delete the lease if this node holds it.
        case release(String)

        /// The room whose lease it is about.
        var room: String {
            switch self {
            case .acquire(let key), .renew(let key), .release(let key): key
            }
        }

        /// Its Redis arguments, from `node`.
        func arguments(node: String, timing: ClusterTiming) -> [String] {
            let ttl = String(Int((timing.lease * 1000).rounded()))
            return switch self {
            case .acquire(let key): ["EVAL", ClusterKeys.acquireScript, "1", ClusterKeys.lease(key), node, ttl]
            case .renew(let key): ["EVAL", ClusterKeys.renewScript, "1", ClusterKeys.lease(key), node, ttl]
            case .release(let key): ["EVAL", ClusterKeys.releaseScript, "1", ClusterKeys.lease(key), node]
            }
        }
    }

    /// What to do about a room once its lease command has answered.
    enum Outcome: Equatable {
        /// The room goes there.
        case place(Placement)
        /// Nobody holds the lease this node's room had (Redis restarted): acquire it again.
        case acquireAgain
    }

    /// A room open here.
    private struct Room {
        /// An acquisition of its lease is in flight.
        var acquiring = false
        /// When its origin was last heard from (a frame relayed, or the room placed).
        var heardAt: Double
    }

    let node: String
    let timing: ClusterTiming
    private let clock: any ClusterClock
    private var rooms: [String: Room] = [:]
    private var connectedAt = -Double.infinity
    private var lastRenewal = -Double.infinity

    init(node: String, timing: ClusterTiming, clock: any ClusterClock) {
        self.node = node
        self.timing = timing
        self.clock = clock
    }

    mutating func opened(_ key: String) { rooms[key] = Room(heardAt: clock.now) }

    mutating func closed(_ key: String) { rooms[key] = nil }

    /// Connected to Redis (again): renew at once; take no room over for `reconnectGrace`.
    mutating func connected() {
        connectedAt = clock.now
        lastRenewal = -.infinity
    }

    /// Lost Redis: the acquisitions in flight will not be answered.
    mutating func disconnected() {
        for key in rooms.keys { rooms[key]?.acquiring = false }
    }

    /// Room `key`'s origin was heard from now.
    mutating func heard(from key: String) { rooms[key]?.heardAt = clock.now }

    /// The renewals due now: every room this node is origin of, once per `renewal`.
    mutating func renewals(of presence: [RoomPresence]) -> [Command] {
        guard clock.now - lastRenewal >= timing.renewal else { return [] }
        lastRenewal = clock.now
        return presence.filter { $0.source == .scene }.map { .renew($0.key) }
    }

    /// Whether to acquire `room`'s lease now: a room being placed, or a relayed room with clients here
    /// whose origin has been silent for `silence`, once `reconnectGrace` has passed since
    /// connecting; never while an acquisition is in flight.
    func shouldAcquire(_ room: RoomPresence) -> Bool {
        guard let state = rooms[room.key], !state.acquiring else { return false }
        let now = clock.now
        return switch room.source {
        case .placing: true
        case .origin: room.clients > 0 && now - connectedAt >= timing.reconnectGrace && now - state.heardAt >= timing.silence
        case .scene: false
        }
    }

    /// The acquisition of room `key`'s lease, now in flight; nil when the room is not open here.
    mutating func acquire(_ key: String) -> Command? {
        guard rooms[key] != nil else { return nil }
        rooms[key]?.acquiring = true
        return .acquire(key)
    }

    /// `command` answered `reply`: what to do about its room, if anything.
    mutating func answered(_ command: Command, _ reply: RedisReply) -> Outcome? {
        switch command {
        case .acquire(let key):
            rooms[key]?.acquiring = false
            guard rooms[key] != nil, let holder = reply.text else { return nil }
            return placed(key, Placement(holder: holder, node: node))
        case .renew(let key):
            guard rooms[key] != nil, !reply.isError else { return nil }
            guard let holder = reply.text else { return .acquireAgain }
            return holder == node ? nil : placed(key, .relayed(from: holder))
        case .release:
            return nil
        }
    }

    /// Room `key` goes to `placement`; a relay counts its silence from now.
    private mutating func placed(_ key: String, _ placement: Placement) -> Outcome {
        if case .relayed = placement { rooms[key]?.heardAt = clock.now }
        return .place(placement)
    }
}

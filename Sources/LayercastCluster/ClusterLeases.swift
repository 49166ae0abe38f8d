import LayercastEngine
import LayercastHub

/// The leases of the rooms open on this node (docs/cluster.md, "Placement and leases"): the
/// Redis commands that acquire, renew and release one; when an origin renews them (every
/// `renewal`, well within the `lease` they last); this node's heartbeat (its key, set for
/// `heartbeatExpiry` at every tick); and the takeover decision: a relay whose room has
/// clients and has been silent for `silence` tries to acquire the room's lease, and again every
/// `period` while the holder it names stays silent. It wins once the holder's heartbeat key is
/// gone or its lease has expired, whichever comes first. Its other side: this node holds a room
/// only until its lease, last confirmed, may have expired (`expiredLeases`), and holds none once
/// its heartbeat, last confirmed, may have (`isCutOff`).
struct ClusterLeases {
    /// A command about one room's lease.
    enum Command: Equatable {
        /// Set the lease to this node for `lease` if nobody holds it or its holder's heartbeat is
        /// gone; answers the holder.
        case acquire(String)
        /// Extend the lease if this node holds it; answers the holder (nil when nobody does).
        case renew(String)
        /// Delete the lease if this node holds it.
        case release(String)
        /// Answer the lease's holder if its heartbeat is there (else nil), changing nothing: for a
        /// room of a scene this node lacks.
        case locate(String)

        /// The room whose lease it is about.
        var room: String {
            switch self {
            case .acquire(let key), .renew(let key), .release(let key), .locate(let key): key
            }
        }

        /// Its Redis arguments, from `node`.
        func arguments(node: String, timing: ClusterTiming) -> [String] {
            let ttl = String(Int((timing.lease * 1000).rounded()))
            return switch self {
            case .acquire(let key): ["EVAL", ClusterKeys.acquireScript, "1", ClusterKeys.lease(key), node, ttl, ClusterKeys.heartbeatPrefix]
            case .renew(let key): ["EVAL", ClusterKeys.renewScript, "1", ClusterKeys.lease(key), node, ttl]
            case .release(let key): ["EVAL", ClusterKeys.releaseScript, "1", ClusterKeys.lease(key), node]
            case .locate(let key): ["EVAL", ClusterKeys.locateScript, "1", ClusterKeys.lease(key), ClusterKeys.heartbeatPrefix]
            }
        }
    }

    /// What to do about a room once its lease command has answered.
    enum Outcome: Equatable {
        /// The room goes there.
        case place(Placement)
        /// Nobody holds the lease this node's room had (Redis restarted): acquire it again.
        case acquireAgain
        /// No live node holds the lease of a room whose scene this node lacks: ask a node that
        /// runs the scene to run the room.
        case requestPlacement
    }

    /// A room open here.
    private struct Room {
        /// An acquisition of its lease is in flight.
        var acquiring = false
        /// When its origin was last heard from (a frame relayed, or the room placed on a new holder).
        var heardAt: Double
        /// The holder the last answer about its lease named.
        var holder: String?
        /// When its newest acquisition and renewal were sent.
        var acquiredAt = -Double.infinity
        var renewedAt = -Double.infinity
        /// Until when it is this node's for sure: a lease's length after sending the newest
        /// acquisition or renewal that Redis answered with this node.
        var heldUntil = -Double.infinity
    }

    let node: String
    let timing: ClusterTiming
    private let clock: any MediaClock
    private var rooms: [String: Room] = [:]
    private var connectedAt = -Double.infinity
    private var lastRenewal = -Double.infinity

    init(node: String, timing: ClusterTiming, clock: any MediaClock) {
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

    /// This node's heartbeat, which its link sends at every tick and on connecting: its key,
    /// holding `fingerprint` (its player-id key's, `ClusterNode.agreeOnKey`), set for `heartbeatExpiry`.
    func heartbeat(fingerprint: String) -> [String] {
        ["SET", ClusterKeys.heartbeat(node), fingerprint, "PX", String(Int((timing.heartbeatExpiry * 1000).rounded()))]
    }

    /// Lost Redis: the acquisitions in flight will not be answered.
    mutating func disconnected() {
        for key in rooms.keys { rooms[key]?.acquiring = false }
    }

    /// Room `key`'s origin was heard from now.
    mutating func heard(from key: String) { rooms[key]?.heardAt = clock.now }

    /// The renewals due now: every room this node is origin of, once per `renewal` (asked at each
    /// tick, so a tick short of it by less than half a `period`, the timer's rounding, is on time).
    mutating func renewals(of presence: [RoomPresence]) -> [Command] {
        guard clock.now - lastRenewal >= timing.renewal - timing.period / 2 else { return [] }
        lastRenewal = clock.now
        let renewing = presence.filter { $0.source == .scene }
        for room in renewing { rooms[room.key]?.renewedAt = clock.now }
        return renewing.map { .renew($0.key) }
    }

    /// The rooms whose lease this node held and may have lost: no acquisition or renewal sent
    /// within the lease's length has been answered with this node (a hub thread that hung, or
    /// Redis that stopped answering). This node must stop running those it is origin of.
    func expiredLeases() -> [String] {
        let now = clock.now
        return rooms.compactMap { key, room in room.heldUntil > -.infinity && now >= room.heldUntil ? key : nil }
    }

    /// Whether this node may have lost every room it holds: the newest heartbeat Redis confirmed
    /// was sent at `beatConfirmedAt`, `heartbeatExpiry` or more ago, so its key may be gone and
    /// its leases taken. Such a node serves no room of the cluster.
    func isCutOff(beatConfirmedAt: Double) -> Bool {
        clock.now - beatConfirmedAt >= timing.heartbeatExpiry
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
        rooms[key]?.acquiredAt = clock.now
        return .acquire(key)
    }

    /// The location of room `key`'s holder (the room's scene is not this node's), now in flight;
    /// nil when the room is not open here. It counts as an acquisition for `shouldAcquire`.
    mutating func locate(_ key: String) -> Command? {
        guard rooms[key] != nil else { return nil }
        rooms[key]?.acquiring = true
        return .locate(key)
    }

    /// `command` answered `reply`: what to do about its room, if anything.
    mutating func answered(_ command: Command, _ reply: RedisReply) -> Outcome? {
        switch command {
        case .acquire(let key):
            rooms[key]?.acquiring = false
            guard let room = rooms[key], let holder = reply.text else { return nil }
            if holder == node { rooms[key]?.heldUntil = room.acquiredAt + timing.lease }
            return placed(key, Placement(holder: holder, node: node))
        case .renew(let key):
            guard let room = rooms[key], !reply.isError else { return nil }
            guard let holder = reply.text else { return .acquireAgain }
            guard holder != node else {
                rooms[key]?.heldUntil = max(room.heldUntil, room.renewedAt + timing.lease)
                return nil
            }
            return placed(key, .relayed(from: holder))
        case .release:
            return nil
        case .locate(let key):
            rooms[key]?.acquiring = false
            guard rooms[key] != nil, !reply.isError else { return nil }
            guard let holder = reply.text, holder != node else { return .requestPlacement }
            return placed(key, .relayed(from: holder))
        }
    }

    /// Room `key` goes to `placement`. A relay of a holder it had not been told of counts that
    /// holder's silence from now; one told again of the same holder does not, so that it tries
    /// again next `period` while the silence lasts.
    private mutating func placed(_ key: String, _ placement: Placement) -> Outcome {
        let holder = switch placement {
        case .here: node
        case .relayed(let origin): origin
        }
        if holder != node, rooms[key]?.holder != holder { rooms[key]?.heardAt = clock.now }
        if holder != node { rooms[key]?.heldUntil = -.infinity }
        rooms[key]?.holder = holder
        return .place(placement)
    }
}

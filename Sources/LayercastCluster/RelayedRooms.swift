import LayercastEngine

/// The rooms this node relays (docs/cluster.md, "Roles"): the origin each is relayed from,
/// whether this node listens on its channel, and when it last asked the origin for a full frame
/// (at most once per `fullFrameRequests`).
struct RelayedRooms {
    private struct Room {
        var origin: String
        var subscribed = false
        var lastFullRequest = -Double.infinity
    }

    private let timing: ClusterTiming
    private let clock: any MediaClock
    private var rooms: [String: Room] = [:]

    init(timing: ClusterTiming, clock: any MediaClock) {
        self.timing = timing
        self.clock = clock
    }

    /// The origin room `key` is relayed from; nil when it is not relayed here.
    func origin(of key: String) -> String? { rooms[key]?.origin }

    /// Relays room `key` from `origin` from now on, which may be asked for a full frame at once;
    /// whether to subscribe to the room's channel (this node was not listening yet).
    mutating func relay(_ key: String, from origin: String) -> Bool {
        let subscribe = rooms[key]?.subscribed != true
        rooms[key] = Room(origin: origin, subscribed: true)
        return subscribe
    }

    /// Room `key` is no longer relayed here (it runs here, or closed); whether to unsubscribe
    /// from its channel.
    mutating func stop(_ key: String) -> Bool { rooms.removeValue(forKey: key)?.subscribed == true }

    /// Whether to ask room `key`'s origin for a full frame now; if so, the request is counted.
    mutating func mayRequestFullFrame(_ key: String) -> Bool {
        let now = clock.now
        guard now - (rooms[key]?.lastFullRequest ?? -.infinity) >= timing.fullFrameRequests else { return false }
        rooms[key]?.lastFullRequest = now
        return true
    }
}

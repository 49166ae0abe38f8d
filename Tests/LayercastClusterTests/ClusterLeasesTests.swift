import LayercastEngine
@testable import LayercastHub
import Testing
@testable import LayercastCluster

/// Leases, heartbeats and placement on a manual clock (docs/cluster.md, "Placement and leases"
/// and "Failover"), against Redis's side of the lease scripts and heartbeat keys kept in memory:
/// no Redis, no sleeps.
@Suite struct ClusterLeasesTests {
    /// What `ClusterKeys.acquireScript`, `renewScript` and `locateScript` do to one lease, and
    /// the nodes' heartbeat keys, on the test's clock (ScenePlacementTests uses it too).
    struct LeaseInRedis {
        var holder: String?
        var expiresAt = -Double.infinity
        /// Node → when its heartbeat key expires.
        var heartbeats: [String: Double] = [:]

        /// `ClusterLeases.heartbeat` of `node`.
        mutating func beat(_ node: String, at now: Double, timing: ClusterTiming) { heartbeats[node] = now + timing.heartbeatExpiry }

        func isAlive(_ node: String, at now: Double) -> Bool { now < heartbeats[node, default: -.infinity] }

        mutating func run(_ command: ClusterLeases.Command, from node: String, at now: Double, timing: ClusterTiming) -> RedisReply {
            if now >= expiresAt { holder = nil }
            switch command {
            case .acquire:
                if holder != node, !(holder.map { isAlive($0, at: now) } ?? false) { (holder, expiresAt) = (node, now + timing.lease) }
            case .renew:
                if holder == node { expiresAt = now + timing.lease }
            case .release:
                if holder == node { holder = nil }
            case .locate:
                return holder.flatMap { isAlive($0, at: now) ? .string(Array($0.utf8)) : nil } ?? .null
            }
            return holder.map { .string(Array($0.utf8)) } ?? .null
        }
    }

    private static let key = "rain/lobby"
    private static let timing = ClusterTiming()

    private static func room(_ source: RoomSource, clients: Int = 1) -> RoomPresence {
        RoomPresence(key: key, source: source, clients: clients, players: 0, distinctPlayers: 0, frame: 0, uptime: 0)
    }

    /// A node's leases with room `key` open, connected at the clock's time.
    private static func leases(_ node: String, on clock: ManualClock) -> ClusterLeases {
        var leases = ClusterLeases(node: node, timing: timing, clock: clock)
        leases.opened(key)
        leases.connected()
        return leases
    }

    @Test func theCommandsAreTheScriptsWithTheLeaseInMilliseconds() {
        #expect(ClusterLeases.Command.acquire(Self.key).arguments(node: "n1", timing: Self.timing)
            == ["EVAL", ClusterKeys.acquireScript, "1", "layercast:lease:rain/lobby", "n1", "2000", "layercast:alive:"])
        #expect(ClusterLeases.Command.renew(Self.key).arguments(node: "n1", timing: Self.timing)
            == ["EVAL", ClusterKeys.renewScript, "1", "layercast:lease:rain/lobby", "n1", "2000"])
        #expect(ClusterLeases.Command.release(Self.key).arguments(node: "n1", timing: Self.timing)
            == ["EVAL", ClusterKeys.releaseScript, "1", "layercast:lease:rain/lobby", "n1"])
        #expect(ClusterLeases.Command.locate(Self.key).arguments(node: "n1", timing: Self.timing)
            == ["EVAL", ClusterKeys.locateScript, "1", "layercast:lease:rain/lobby", "layercast:alive:"])
        #expect(Self.leases("n1", on: ManualClock()).heartbeat(fingerprint: "k-0123456789abcdef")
            == ["SET", "layercast:alive:n1", "k-0123456789abcdef", "PX", "500"])
    }

    /// The scripts and heartbeats in a real redis-server answer as `LeaseInRedis` does (within
    /// one heartbeat, here a minute long: no waiting; a node dies by losing its heartbeat key).
    @Test func theModelAnswersAsTheScriptsDo() throws {
        enum Step { case lease(ClusterLeases.Command, String), beat(String), die(String) }
        let server = try RedisTestServer()
        let redis = try RedisConnection(host: "127.0.0.1", port: server.port, database: 0, timeout: 1)
        var model = LeaseInRedis()
        var timing = Self.timing
        timing.heartbeatExpiry = 60
        let steps: [Step] = [
            .beat("n1"), .beat("n2"), .lease(.renew(Self.key), "n1"), .lease(.acquire(Self.key), "n1"),
            .lease(.acquire(Self.key), "n2"), .lease(.renew(Self.key), "n2"), .lease(.renew(Self.key), "n1"),
            .lease(.acquire(Self.key), "n1"), .lease(.release(Self.key), "n2"), .lease(.release(Self.key), "n1"),
            .lease(.renew(Self.key), "n1"), .lease(.acquire(Self.key), "n2"), .lease(.acquire(Self.key), "n1"),
            .die("n2"), .lease(.acquire(Self.key), "n1"), .lease(.acquire(Self.key), "n3"), .lease(.renew(Self.key), "n1"),
            .lease(.locate(Self.key), "n3"), .die("n1"), .lease(.locate(Self.key), "n3"), .beat("n3"),
        ]
        var answers: [String?] = []
        for step in steps {
            switch step {
            case .beat(let node):
                _ = try redis.command(ClusterLeases(node: node, timing: timing, clock: ManualClock()).heartbeat(fingerprint: "k-0"))
                model.beat(node, at: 0, timing: timing)
            case .die(let node):
                _ = try redis.command(["DEL", ClusterKeys.heartbeat(node)])
                model.heartbeats[node] = nil
            case .lease(let command, let node):
                let real = try redis.command(command.arguments(node: node, timing: Self.timing))
                let modelled = model.run(command, from: node, at: 0, timing: Self.timing)
                if case .release = command { continue }  // answers a count; the model, the holder after
                #expect(real == modelled, "\(command) from \(node)")
                answers.append(real.text)
            }
        }
        // n2 held the lease while it beat; once its heartbeat was gone n1 took it at once, long
        // before the lease's expiry, and kept it from n3 (which never beat) while it beats.
        // n3 locates n1 while it beats, and nobody once n1's heartbeat is gone (the lease is still
        // n1's: locating changes nothing).
        #expect(answers == [nil, "n1", "n1", "n1", "n1", "n1", nil, "n2", "n2", "n1", "n1", "n1", "n1", nil])
        #expect(try redis.command(["GET", ClusterKeys.lease(Self.key)]).text == model.holder)
        guard case .integer(let ttl) = try redis.command(["PTTL", ClusterKeys.lease(Self.key)]) else { Issue.record("no PTTL"); return }
        #expect(ttl > 1000 && ttl <= Int(Self.timing.lease * 1000))
        guard case .integer(let beat) = try redis.command(["PTTL", ClusterKeys.heartbeat("n3")]) else { Issue.record("no PTTL"); return }
        #expect(beat > 50_000 && beat <= 60_000)
    }

    /// The first node to acquire a room's lease runs it; the next learns the holder and relays it.
    @Test func theFirstToAcquireRunsTheRoomAndTheNextRelaysIt() {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        for (node, expected) in [("n1", Placement.here), ("n2", .relayed(from: "n1"))] {
            redis.beat(node, at: clock.now, timing: Self.timing)
            var leases = Self.leases(node, on: clock)
            #expect(leases.shouldAcquire(Self.room(.placing, clients: 0)))  // placing: at once, clients or not
            guard let acquisition = leases.acquire(Self.key) else { Issue.record("no acquisition"); return }
            #expect(!leases.shouldAcquire(Self.room(.placing)))  // in flight
            let reply = redis.run(acquisition, from: node, at: clock.now, timing: Self.timing)
            #expect(leases.answered(acquisition, reply) == .place(expected))
            #expect(leases.shouldAcquire(Self.room(.placing)))  // answered
            #expect(leases.acquire("closed/room") == nil)  // only rooms open here
        }
    }

    /// An origin renews every `renewal`, so its lease never lapses while it lives; a relay renews nothing.
    @Test func anOriginRenewsLongBeforeItsLeaseExpires() {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        var origin = Self.leases("n1", on: clock)
        _ = redis.run(.acquire(Self.key), from: "n1", at: clock.now, timing: Self.timing)
        var renewedAt: [Double] = []
        for tick in 1...Int((10 / Self.timing.period).rounded()) {
            clock.now = Double(tick) * Self.timing.period
            for renewal in origin.renewals(of: [Self.room(.scene)]) {
                renewedAt.append(clock.now)
                #expect(origin.answered(renewal, redis.run(renewal, from: "n1", at: clock.now, timing: Self.timing)) == nil)
            }
            #expect(redis.holder == "n1")
        }
        #expect(renewedAt.count == Int(10 / Self.timing.renewal))
        #expect(zip(renewedAt, renewedAt.dropFirst()).allSatisfy { abs($1 - $0 - Self.timing.renewal) < 1e-9 })
        #expect(Self.timing.renewal < Self.timing.lease / 2)
        var relay = Self.leases("n2", on: clock)
        #expect(relay.renewals(of: [Self.room(.origin("n1"))]).isEmpty)
    }

    /// Ticks of the link's timer (`period`) from 0 to `until`: the origin `n1` beats, renews and
    /// sends frames until `diesAt` (when given) at each tick; relay `n2`, with clients, tries to
    /// acquire the lease whenever `shouldAcquire` says so. Returns each acquisition's time and
    /// outcome, stopping at the first that wins.
    private static func failover(diesAt: Double?, silentFrom: Double, until: Double) -> [(at: Double, outcome: ClusterLeases.Outcome?)] {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        var relay = Self.leases("n2", on: clock)
        redis.beat("n1", at: 0, timing: timing)
        _ = redis.run(.acquire(key), from: "n1", at: 0, timing: timing)
        _ = relay.answered(.acquire(key), .string(Array("n1".utf8)))  // placed: relayed from n1
        var acquisitions: [(at: Double, outcome: ClusterLeases.Outcome?)] = []
        var tick = 0
        while acquisitions.last?.outcome != .place(.here), clock.now < until {
            tick += 1
            clock.now = Double(tick) * timing.period
            if diesAt.map({ clock.now <= $0 }) ?? true {
                redis.beat("n1", at: clock.now, timing: timing)
                if Int((clock.now / timing.renewal).rounded(.down)) != Int(((clock.now - timing.period) / timing.renewal).rounded(.down)) {
                    _ = redis.run(.renew(key), from: "n1", at: clock.now, timing: timing)
                }
                if clock.now < silentFrom { relay.heard(from: key) }
            }
            redis.beat("n2", at: clock.now, timing: timing)
            if relay.shouldAcquire(Self.room(.origin("n1"))) {
                guard let acquisition = relay.acquire(key) else { return acquisitions }
                acquisitions.append((clock.now, relay.answered(acquisition, redis.run(acquisition, from: "n2", at: clock.now, timing: timing))))
            }
        }
        return acquisitions
    }

    /// The failover of docs/cluster.md: the origin dies with its lease fresh (1.5 s of it left);
    /// the relay notices the silence after `silence`, tries at every tick while it lasts, and
    /// its acquisitions answer the dead origin until its heartbeat key is gone, `heartbeatExpiry`
    /// after its last beat; the first acquisition after that wins, long before the lease expires:
    /// a new origin within `heartbeatExpiry + period` of the death.
    @Test func aRelayTakesTheRoomOverOnceTheOriginsHeartbeatIsGone() throws {
        let diedAt = 3.05  // between two ticks: its last beat was at 3.0
        let acquisitions = Self.failover(diesAt: diedAt, silentFrom: diedAt, until: 10)
        let first = try #require(acquisitions.first)
        #expect(abs(first.at - (diedAt + Self.timing.silence)) < Self.timing.period)
        #expect(zip(acquisitions, acquisitions.dropFirst()).allSatisfy { abs($1.at - $0.at - Self.timing.period) < 1e-9 })
        #expect(acquisitions.dropLast().allSatisfy { $0.outcome == .place(.relayed(from: "n1")) })
        let takeover = try #require(acquisitions.last)
        #expect(takeover.outcome == .place(.here))
        #expect(takeover.at > diedAt + Self.timing.heartbeatExpiry - Self.timing.period)
        #expect(takeover.at <= diedAt + Self.timing.heartbeatExpiry + Self.timing.period + 1e-9)
        #expect(takeover.at - diedAt < 1.0 && takeover.at < diedAt + Self.timing.lease - Self.timing.renewal)
    }

    /// An origin that still beats keeps its room while its frames do not reach a relay (a lost
    /// message, a slow tick): the relay asks at every tick and is answered the live origin each time.
    @Test func aSilentOriginThatBeatsKeepsItsRoom() {
        let acquisitions = Self.failover(diesAt: nil, silentFrom: 3.0, until: 6.0)
        #expect(acquisitions.count >= Int((3.0 - Self.timing.silence) / Self.timing.period) - 1)
        #expect(acquisitions.allSatisfy { $0.outcome == .place(.relayed(from: "n1")) })
    }

    /// The timing the bound rests on: a heartbeat outlives a tick several times over (a hub
    /// thread late by a few ticks keeps its rooms), the relay notices silence before the
    /// heartbeat lapses, and detection plus one tick stays under a second.
    @Test func theTimingBoundsDetectionUnderASecond() {
        #expect(Self.timing.heartbeatExpiry >= 4 * Self.timing.period)
        #expect(Self.timing.silence < Self.timing.heartbeatExpiry)
        #expect(Self.timing.heartbeatExpiry + Self.timing.period <= 0.6 + 1e-9)
        #expect(Self.timing.renewal < Self.timing.lease / 2)
    }

    /// A relay takes nothing over while frames come, without clients, or within `reconnectGrace`
    /// of connecting to Redis (its origin may not have renewed yet).
    @Test func aRelayWaitsForSilenceClientsAndTheGrace() {
        let clock = ManualClock()
        var relay = Self.leases("n2", on: clock)
        clock.now = max(Self.timing.silence, Self.timing.reconnectGrace)
        #expect(relay.shouldAcquire(Self.room(.origin("n1"))))
        #expect(!relay.shouldAcquire(Self.room(.origin("n1"), clients: 0)))
        #expect(!relay.shouldAcquire(Self.room(.scene)))
        relay.heard(from: Self.key)
        clock.now += Self.timing.silence - 0.01
        #expect(!relay.shouldAcquire(Self.room(.origin("n1"))))
        clock.now += 0.01
        #expect(relay.shouldAcquire(Self.room(.origin("n1"))))
        relay.connected()  // again
        clock.now += Self.timing.reconnectGrace - 0.01
        #expect(!relay.shouldAcquire(Self.room(.origin("n1"))))
        clock.now += 0.01
        #expect(relay.shouldAcquire(Self.room(.origin("n1"))))
        _ = relay.acquire(Self.key)
        relay.disconnected()  // the acquisition will not be answered
        #expect(relay.shouldAcquire(Self.room(.origin("n1"))))
    }

    /// What an origin's renewal says: kept, lost to another node (a partition longer than the
    /// lease), or lapsed (Redis restarted); an error says nothing.
    @Test func renewalsKeepLoseOrAcquireAgain() {
        let clock = ManualClock()
        var origin = Self.leases("n1", on: clock)
        let renew = ClusterLeases.Command.renew(Self.key)
        #expect(origin.answered(renew, .string(Array("n1".utf8))) == nil)
        #expect(origin.answered(renew, .string(Array("n3".utf8))) == .place(.relayed(from: "n3")))
        #expect(origin.answered(renew, .null) == .acquireAgain)
        #expect(origin.answered(renew, .error("Redis is unreachable")) == nil)
        #expect(origin.answered(.acquire(Self.key), .error("Redis is unreachable")) == nil)
        origin.closed(Self.key)
        #expect(origin.answered(renew, .null) == nil)
    }

    /// A relay follows the node a room's frames come from when it is not the origin it knows.
    @Test func placementFollowsANewOrigin() {
        #expect(Placement(holder: "n1", node: "n1") == .here)
        #expect(Placement(holder: "n2", node: "n1") == .relayed(from: "n2"))
        #expect(Placement.following("n3", relayedFrom: "n2", node: "n1") == .relayed(from: "n3"))
        #expect(Placement.following("n2", relayedFrom: "n2", node: "n1") == nil)
        #expect(Placement.following("n1", relayedFrom: "n2", node: "n1") == nil)  // its own
        #expect(Placement.following("n3", relayedFrom: nil, node: "n1") == nil)  // not relayed here
    }
}

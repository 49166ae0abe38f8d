@testable import LayercastHub
import Testing
@testable import LayercastCluster

/// A clock that moves only when a test moves it.
final class ManualClock: ClusterClock {
    var now = 0.0
}

/// Leases and placement on a manual clock (docs/cluster.md, "Placement and leases" and
/// "Failover"), against Redis's side of the lease scripts kept in memory: no Redis, no sleeps.
@Suite struct ClusterLeasesTests {
    /// What `ClusterKeys.acquireScript` and `renewScript` do to one lease, on the test's clock.
    private struct LeaseInRedis {
        var holder: String?
        var expiresAt = -Double.infinity

        mutating func run(_ command: ClusterLeases.Command, from node: String, at now: Double, timing: ClusterTiming) -> RedisReply {
            if now >= expiresAt { holder = nil }
            switch command {
            case .acquire:
                if holder == nil { (holder, expiresAt) = (node, now + timing.lease) }
            case .renew:
                if holder == node { expiresAt = now + timing.lease }
            case .release:
                if holder == node { holder = nil }
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
            == ["EVAL", ClusterKeys.acquireScript, "1", "layercast:lease:rain/lobby", "n1", "2000"])
        #expect(ClusterLeases.Command.renew(Self.key).arguments(node: "n1", timing: Self.timing)
            == ["EVAL", ClusterKeys.renewScript, "1", "layercast:lease:rain/lobby", "n1", "2000"])
        #expect(ClusterLeases.Command.release(Self.key).arguments(node: "n1", timing: Self.timing)
            == ["EVAL", ClusterKeys.releaseScript, "1", "layercast:lease:rain/lobby", "n1"])
    }

    /// The scripts in a real redis-server answer as `LeaseInRedis` does (within one lease: no waiting).
    @Test func theModelAnswersAsTheScriptsDo() throws {
        let server = try RedisTestServer()
        let redis = try RedisConnection(host: "127.0.0.1", port: server.port, database: 0, timeout: 1)
        var model = LeaseInRedis()
        let steps: [(ClusterLeases.Command, String)] = [
            (.renew(Self.key), "n1"), (.acquire(Self.key), "n1"), (.acquire(Self.key), "n2"), (.renew(Self.key), "n2"),
            (.renew(Self.key), "n1"), (.release(Self.key), "n2"), (.release(Self.key), "n1"), (.renew(Self.key), "n1"),
            (.acquire(Self.key), "n2"),
        ]
        for (command, node) in steps {
            let real = try redis.command(command.arguments(node: node, timing: Self.timing))
            let modelled = model.run(command, from: node, at: 0, timing: Self.timing)
            if case .release = command { continue }  // answers a count; the model, the holder after
            #expect(real == modelled, "\(command) from \(node)")
        }
        #expect(try redis.command(["GET", ClusterKeys.lease(Self.key)]).text == model.holder)
        guard case .integer(let ttl) = try redis.command(["PTTL", ClusterKeys.lease(Self.key)]) else { Issue.record("no PTTL"); return }
        #expect(ttl > 1000 && ttl <= Int(Self.timing.lease * 1000))
    }

    /// The first node to acquire a room's lease runs it; the next learns the holder and relays it.
    @Test func theFirstToAcquireRunsTheRoomAndTheNextRelaysIt() {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        for (node, expected) in [("n1", Placement.here), ("n2", .relayed(from: "n1"))] {
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
        while clock.now < 10 {
            clock.now += Self.timing.period
            for renewal in origin.renewals(of: [Self.room(.scene)]) {
                renewedAt.append(clock.now)
                #expect(origin.answered(renewal, redis.run(renewal, from: "n1", at: clock.now, timing: Self.timing)) == nil)
            }
            #expect(redis.holder == "n1")
        }
        #expect(renewedAt.count == Int(10 / Self.timing.renewal))
        #expect(zip(renewedAt, renewedAt.dropFirst()).allSatisfy { $1 - $0 == Self.timing.renewal })
        #expect(Self.timing.renewal < Self.timing.lease / 2)
        var relay = Self.leases("n2", on: clock)
        #expect(relay.renewals(of: [Self.room(.origin("n1"))]).isEmpty)
    }

    /// The failover of docs/cluster.md: the origin dies just after a renewal; the relay notices the
    /// silence, and its acquisitions answer the dead origin until the lease has expired, `lease` after
    /// that renewal; the first acquisition after that wins.
    @Test func aRelayTakesTheRoomOverOnlyAfterTheLeaseHasExpired() throws {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        var relay = Self.leases("n2", on: clock)
        _ = redis.run(.acquire(Self.key), from: "n1", at: 0, timing: Self.timing)
        let diedAt = 3.0
        var acquisitions: [(at: Double, outcome: ClusterLeases.Outcome?)] = []
        while acquisitions.last?.outcome != .place(.here), clock.now < 10 {
            clock.now += Self.timing.period
            if clock.now <= diedAt {  // the origin renews and its frames arrive
                _ = redis.run(.renew(Self.key), from: "n1", at: clock.now, timing: Self.timing)
                relay.heard(from: Self.key)
            }
            if relay.shouldAcquire(Self.room(.origin("n1"))) {
                guard let acquisition = relay.acquire(Self.key) else { Issue.record("no acquisition"); return }
                acquisitions.append((clock.now, relay.answered(acquisition, redis.run(acquisition, from: "n2", at: clock.now, timing: Self.timing))))
            }
        }
        let expiry = diedAt + Self.timing.lease
        #expect(acquisitions.first.map { $0.at - diedAt } == Self.timing.silence)
        #expect(acquisitions.filter { $0.at < expiry }.allSatisfy { $0.outcome == .place(.relayed(from: "n1")) })
        let takeover = try #require(acquisitions.last)
        #expect(takeover.outcome == .place(.here))
        #expect(takeover.at >= expiry && takeover.at < expiry + Self.timing.silence)
        #expect(redis.holder == "n2")
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

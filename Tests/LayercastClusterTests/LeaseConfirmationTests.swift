import Testing
@testable import LayercastCluster
import LayercastEngine
@testable import LayercastHub

/// How long a node may be sure it holds its rooms (docs/cluster.md, "A cut-off node steps
/// down"), on a manual clock against `ClusterLeasesTests.LeaseInRedis`: a lease's length after its
/// newest confirmed acquisition or renewal, and the heartbeat key's life after its newest
/// confirmed beat.
@Suite struct LeaseConfirmationTests {
    private static let key = "rain/lobby"
    private static let timing = ClusterTiming()

    private static func origin(_ presence: RoomSource = .scene) -> [RoomPresence] {
        [RoomPresence(key: key, source: presence, clients: 1, players: 0, distinctPlayers: 0, frame: 0, uptime: 0)]
    }

    /// Each renewal Redis answers with this node holds the room a lease's length from when it was
    /// sent; renewals that go unanswered (Redis away, or the hub's thread hung) let it lapse.
    @Test func anOriginHoldsItsRoomALeaseAfterItsNewestConfirmedRenewal() {
        let clock = ManualClock()
        var redis = ClusterLeasesTests.LeaseInRedis()
        var leases = ClusterLeases(node: "n1", timing: Self.timing, clock: clock)
        leases.opened(Self.key)
        leases.connected()
        #expect(leases.expiredLeases().isEmpty)  // never held: nothing to give up
        redis.beat("n1", at: clock.now, timing: Self.timing)
        guard let acquisition = leases.acquire(Self.key) else { Issue.record("no acquisition"); return }
        clock.now = 0.05  // the answer comes a round trip later; the lease counts from the sending
        #expect(leases.answered(acquisition, redis.run(acquisition, from: "n1", at: 0, timing: Self.timing)) == .place(.here))
        clock.now = 0.5
        guard let renewal = leases.renewals(of: Self.origin()).first else { Issue.record("no renewal"); return }
        clock.now = 0.6
        #expect(leases.answered(renewal, redis.run(renewal, from: "n1", at: 0.5, timing: Self.timing)) == nil)
        clock.now = 1.99
        #expect(leases.expiredLeases().isEmpty)  // the acquisition alone would have lapsed at 2.0
        for sent in [1.0, 1.5, 2.0] {  // sent, never answered
            clock.now = sent
            #expect(leases.renewals(of: Self.origin()).count == 1)
        }
        clock.now = 2.49
        #expect(leases.expiredLeases().isEmpty)
        clock.now = 2.5
        #expect(leases.expiredLeases() == [Self.key])

        // A renewal that names another holder hands the room over: nothing left to expire here.
        redis.holder = "n2"
        clock.now = 3.0
        guard let lost = leases.renewals(of: Self.origin()).first else { Issue.record("no renewal"); return }
        #expect(leases.answered(lost, .string(Array("n2".utf8))) == .place(.relayed(from: "n2")))
        #expect(leases.expiredLeases().isEmpty)
    }

    /// A node is cut off once its newest confirmed heartbeat was sent the key's life ago: from
    /// then on another node may hold its leases.
    @Test func aNodeIsCutOffOnceItsNewestConfirmedBeatIsAsOldAsTheKey() {
        let clock = ManualClock()
        let leases = ClusterLeases(node: "n1", timing: Self.timing, clock: clock)
        clock.now = 10.49
        #expect(!leases.isCutOff(beatConfirmedAt: 10))
        clock.now = 10.5
        #expect(leases.isCutOff(beatConfirmedAt: 10))
        #expect(!leases.isCutOff(beatConfirmedAt: 10.2))
    }
}

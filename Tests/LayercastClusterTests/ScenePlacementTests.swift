@testable import LayercastHub
import LayercastJSON
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastCluster

/// Placement by scene (docs/cluster.md, "Scenes"): what nodes publish of their scenes, which node
/// a room whose scene this node lacks is asked to run on, and how such a room finds its origin
/// and a new one when it dies, on a manual clock against `LeaseInRedis`; the scripts and the start
/// check against a real redis-server.
@Suite struct ScenePlacementTests {
    private typealias LeaseInRedis = ClusterLeasesTests.LeaseInRedis
    private static let key = "card-flip/table"
    private static let timing = ClusterTiming()
    private static let ours = try! SceneRegistry(SceneCatalog.all)

    /// The scenes of a node running ours and, when `cardTitle` is given, a card-flip scene so titled.
    private static func scenes(cardTitle: String? = nil) -> NodeScenes {
        var fields = NodeScenes(ours).fields
        if let cardTitle {
            fields["card-flip"] = ["scene": "card-flip", "title": .string(cardTitle), "size": ["width": 414, "height": 736],
                                   "interactions": ["tap"], "assets": [:]]
        }
        return NodeScenes(fields: fields)
    }

    /// A `liveScenesScript` reply naming `nodes` with their scenes.
    private static func reply(_ nodes: [(String, NodeScenes)]) -> RedisReply {
        .array(nodes.flatMap { [RedisReply.string(Array($0.0.utf8)), .string(Array($0.1.json.serialized().utf8))] })
    }

    private static func room(_ source: RoomSource, clients: Int = 1) -> RoomPresence {
        RoomPresence(key: key, source: source, clients: clients, players: 0, distinctPlayers: 0, frame: 0, uptime: 0)
    }

    private static func leases(_ node: String, on clock: ManualClock) -> ClusterLeases {
        var leases = ClusterLeases(node: node, timing: timing, clock: clock)
        leases.opened(key)
        leases.connected()
        return leases
    }

    @Test func theFingerprintIsFNV1aOfTheBytes() {
        // The published FNV-1a 64-bit test vectors.
        #expect(NodeScenes.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(NodeScenes.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(NodeScenes.hash("foobar") == 0x8594_4171_f739_67e8)
        #expect(NodeScenes.fingerprint("a") == "s-af63dc4c8601ec8c")
        #expect(NodeScenes.fingerprint("") == "s-cbf29ce484222325")
    }

    @Test func aNodesScenesAreItsRegistrysWelcomeFieldsReadBackAsWritten() throws {
        let mine = NodeScenes(Self.ours)
        #expect(mine.fields.keys.sorted() == ["book", "cubes", "radar", "rain", "reveal", "snow"])
        let radar = try #require(SceneCatalog.all.first { $0.info.id == "radar" })
        #expect(mine.fields["radar"] == SceneFields.of(radar.info))
        let json = mine.json
        #expect(json["fingerprint"]?.stringValue == mine.fingerprint)
        #expect(json["scenes"]?["radar"]?["fingerprint"]?.stringValue == mine.fingerprint(of: "radar"))
        #expect(NodeScenes(try JSONValue.parse(json.serialized())) == mine)
        // A title changes the scene's fingerprint and the registry's, no other scene's.
        let other = Self.scenes(cardTitle: "Card flip")
        let renamed = Self.scenes(cardTitle: "Card turn")
        #expect(other.fingerprint(of: "card-flip") != renamed.fingerprint(of: "card-flip"))
        #expect(other.fingerprint(of: "radar") == renamed.fingerprint(of: "radar"))
        #expect(other.fingerprint != renamed.fingerprint && other.fingerprint != mine.fingerprint)
        // Fields that are not a scene's, or name another scene, are left out; no scenes at all is not a document.
        let odd: JSONValue = ["scenes": ["radar": ["fields": ["scene": "rain", "title": "x", "size": ["width": 1, "height": 1],
                                                                "interactions": [], "assets": [:]]],
                                         "snow": ["fields": ["scene": "snow"]]]]
        #expect(NodeScenes(odd) == NodeScenes(fields: [:]))
        #expect(NodeScenes(["fingerprint": "s-0"]) == nil)
    }

    @Test func aRoomIsAskedOfANodeThatRunsItsSceneTheSameOneWhoeverAsks() {
        var live = ClusterScenes()
        live.read(Self.reply([("plain", Self.scenes()), ("cards-1", Self.scenes(cardTitle: "Card flip")),
                              ("cards-2", Self.scenes(cardTitle: "Card flip"))]))
        #expect(live.nodes(running: "card-flip", besides: "plain") == ["cards-1", "cards-2"])
        #expect(live.nodes(running: "radar", besides: "plain") == ["cards-1", "cards-2"])
        #expect(live.fields(of: "card-flip", besides: "plain")?["title"] == "Card flip")
        #expect(live.fields(of: "no-such-scene", besides: "plain") == nil)
        // Picked by the room's key: FNV-1a of "card-flip/table" is even, so the first of two.
        #expect(NodeScenes.hash(Self.key) % 2 == 0)
        #expect(live.placementTarget(for: Self.key, besides: "plain") == "cards-1")
        #expect(live.placementTarget(for: Self.key, besides: "other-edge") == "cards-1")
        // Rooms spread over both.
        let targets = Set((0..<20).compactMap { live.placementTarget(for: "card-flip/r\($0)", besides: "plain") })
        #expect(targets == ["cards-1", "cards-2"])
        // The origin the room was relayed from is avoided while another runs the scene.
        #expect(live.placementTarget(for: Self.key, besides: "plain", avoiding: "cards-1") == "cards-2")
        live.read(Self.reply([("plain", Self.scenes()), ("cards-1", Self.scenes(cardTitle: "Card flip"))]))
        #expect(live.placementTarget(for: Self.key, besides: "plain", avoiding: "cards-1") == "cards-1")
        live.read(Self.reply([("plain", Self.scenes())]))
        #expect(live.placementTarget(for: Self.key, besides: "plain") == nil)
        #expect(live.placementTarget(for: "no-slash", besides: "plain") == nil)
    }

    @Test func aSceneTwoNodesPublishDifferentlyIsAConflict() {
        var live = ClusterScenes()
        live.read(Self.reply([("cards-1", Self.scenes(cardTitle: "Card flip")), ("plain", Self.scenes())]))
        #expect(live.conflict(with: Self.scenes(), node: "plain") == nil)  // the same six; card-flip is theirs only
        #expect(live.conflict(with: Self.scenes(cardTitle: "Card flip"), node: "cards-2") == nil)
        let conflict = live.conflict(with: Self.scenes(cardTitle: "Card turn"), node: "cards-2")
        #expect(conflict?.scene == "card-flip" && conflict?.node == "cards-1")
        #expect(conflict?.theirs == Self.scenes(cardTitle: "Card flip").fingerprint(of: "card-flip"))
        #expect(conflict?.mine == Self.scenes(cardTitle: "Card turn").fingerprint(of: "card-flip"))
        // A node's own earlier publication (a restart under the same id) is no conflict.
        #expect(live.conflict(with: Self.scenes(cardTitle: "Card turn"), node: "cards-1") == nil)
    }

    /// A node that lacks the scene never takes the lease: it locates the holder, asks for a
    /// placement while nobody live holds it, and relays from the node that then acquires it.
    @Test func aNodeLackingTheSceneLocatesTheOriginAndNeverHoldsTheLease() {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        redis.beat("plain", at: clock.now, timing: Self.timing)
        redis.beat("cards", at: clock.now, timing: Self.timing)
        var plain = Self.leases("plain", on: clock)
        #expect(plain.shouldAcquire(Self.room(.placing)))
        guard let first = plain.locate(Self.key) else { Issue.record("no location"); return }
        #expect(first == .locate(Self.key))
        #expect(!plain.shouldAcquire(Self.room(.placing)))  // in flight
        #expect(plain.answered(first, redis.run(first, from: "plain", at: clock.now, timing: Self.timing)) == .requestPlacement)
        #expect(redis.holder == nil)
        // `cards` opens the room on the request and acquires it.
        var cards = Self.leases("cards", on: clock)
        guard let acquisition = cards.acquire(Self.key) else { Issue.record("no acquisition"); return }
        #expect(cards.answered(acquisition, redis.run(acquisition, from: "cards", at: clock.now, timing: Self.timing)) == .place(.here))
        clock.now += Self.timing.period
        #expect(plain.shouldAcquire(Self.room(.placing)))
        guard let second = plain.locate(Self.key) else { Issue.record("no location"); return }
        #expect(plain.answered(second, redis.run(second, from: "plain", at: clock.now, timing: Self.timing)) == .place(.relayed(from: "cards")))
        #expect(plain.locate("closed/room") == nil)  // only rooms open here
    }

    /// The relay of a room whose origin dies: while the origin's heartbeat lasts it is located
    /// again; once it is gone, the room is asked of another node that runs the scene, within
    /// `heartbeatExpiry + period` of the death, and relayed from it once it holds the lease.
    @Test func aRelayLackingTheSceneHasItsRoomMovedWhenTheOriginDies() {
        let clock = ManualClock()
        var redis = LeaseInRedis()
        var live = ClusterScenes()
        live.read(Self.reply([("cards-1", Self.scenes(cardTitle: "Card flip")), ("cards-2", Self.scenes(cardTitle: "Card flip"))]))
        for node in ["plain", "cards-1", "cards-2"] { redis.beat(node, at: clock.now, timing: Self.timing) }
        var origin = Self.leases("cards-1", on: clock)
        if let acquisition = origin.acquire(Self.key) { _ = origin.answered(acquisition, redis.run(acquisition, from: "cards-1", at: 0, timing: Self.timing)) }
        var plain = Self.leases("plain", on: clock)
        if let location = plain.locate(Self.key) {
            #expect(plain.answered(location, redis.run(location, from: "plain", at: 0, timing: Self.timing)) == .place(.relayed(from: "cards-1")))
        }
        clock.now = Self.timing.reconnectGrace  // frames flow until now, when cards-1 beats its last and dies
        for node in ["plain", "cards-1", "cards-2"] { redis.beat(node, at: clock.now, timing: Self.timing) }
        plain.heard(from: Self.key)
        let diedAt = clock.now
        var requestedAt: Double?
        while clock.now < diedAt + 2, requestedAt == nil {
            clock.now += Self.timing.period
            for node in ["plain", "cards-2"] { redis.beat(node, at: clock.now, timing: Self.timing) }
            guard plain.shouldAcquire(Self.room(.origin("cards-1"))), let location = plain.locate(Self.key) else { continue }
            switch plain.answered(location, redis.run(location, from: "plain", at: clock.now, timing: Self.timing)) {
            case .requestPlacement?: requestedAt = clock.now
            case .place(.relayed(from: "cards-1"))?: break  // its heartbeat is not gone yet
            case let other: Issue.record("unexpected \(String(describing: other))")
            }
        }
        guard let requestedAt else { Issue.record("no placement request"); return }
        #expect(requestedAt >= diedAt + Self.timing.heartbeatExpiry)
        #expect(requestedAt <= diedAt + Self.timing.heartbeatExpiry + Self.timing.period + 1e-9)
        // Asked of cards-2 (cards-1's scenes key may outlive its report by a second), which takes the lease.
        let target = live.placementTarget(for: Self.key, besides: "plain", avoiding: "cards-1")
        #expect(target == "cards-2")
        var successor = Self.leases("cards-2", on: clock)
        guard let acquisition = successor.acquire(Self.key) else { Issue.record("no acquisition"); return }
        #expect(successor.answered(acquisition, redis.run(acquisition, from: "cards-2", at: clock.now, timing: Self.timing)) == .place(.here))
        clock.now += Self.timing.period
        guard let location = plain.locate(Self.key) else { Issue.record("no location"); return }
        #expect(plain.answered(location, redis.run(location, from: "plain", at: clock.now, timing: Self.timing)) == .place(.relayed(from: "cards-2")))
    }

    /// In a real redis-server: only nodes whose scenes key is there are read, and a starting node
    /// whose scene differs from a live node's is refused, naming both.
    @Test func theScriptsAndTheStartCheckInRedis() throws {
        let server = try RedisTestServer()
        let redis = try RedisConnection(host: "127.0.0.1", port: server.port, database: 0, timeout: 1)
        for (node, scenes) in [("cards-1", Self.scenes(cardTitle: "Card flip")), ("gone", Self.scenes()), ("plain", Self.scenes())] {
            _ = try redis.command(["HSET", ClusterKeys.nodes, node, "{}"])
            if node != "gone" { _ = try redis.command(["SET", ClusterKeys.scenes(node), scenes.json.serialized(), "PX", "60000"]) }
        }
        var live = ClusterScenes()
        live.read(try redis.command(ClusterNode.readScenes))
        #expect(live.nodes.keys.sorted() == ["cards-1", "plain"])
        #expect(live.nodes["cards-1"] == Self.scenes(cardTitle: "Card flip"))
        let ourRegistry = Self.ours
        try ClusterNode.agreeOnScenes(at: server.address, node: "plain", registry: ourRegistry)
        _ = try redis.command(["SET", ClusterKeys.scenes("cards-1"), Self.scenes(cardTitle: "Card flip").json.serialized()
            .replacingOccurrences(of: "Pulsing radar", with: "Another radar"), "PX", "60000"])
        let refusal = #expect(throws: ClusterError.self) {
            try ClusterNode.agreeOnScenes(at: server.address, node: "plain", registry: ourRegistry)
        }
        #expect(refusal?.message.hasPrefix("node cards-1 of the cluster runs another scene \"radar\"") == true)
    }
}

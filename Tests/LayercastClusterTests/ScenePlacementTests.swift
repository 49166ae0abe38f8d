import LayercastEngine
@testable import LayercastHub
import LayercastJSON
import LayercastSceneAPI
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

    @Test func aNodePublishesItsScenesWelcomeFieldsAndTheirFingerprints() throws {
        let mine = NodeScenes(Self.ours)
        #expect(mine.fields.keys.sorted() == ["book", "cubes", "radar", "rain", "reveal", "snow"])
        let radar = try #require(SceneCatalog.all.first { $0.info.id == "radar" })
        #expect(mine.fields["radar"] == SceneFields.of(radar.info))
        #expect(mine.fingerprint(of: "radar") == NodeScenes.fingerprint(JSONValue.object(SceneFields.of(radar.info)).serialized()))
        // A title changes the scene's fingerprint, no other scene's.
        let other = Self.scenes(cardTitle: "Card flip")
        let renamed = Self.scenes(cardTitle: "Card turn")
        #expect(other.fingerprint(of: "card-flip") != renamed.fingerprint(of: "card-flip"))
        #expect(other.fingerprint(of: "radar") == renamed.fingerprint(of: "radar"))
        // Every id with its fingerprint, and the fields only where asked: 8 + 3 × 7 arguments.
        let publication = other.publication(node: "cards", expiry: "2500", withFields: ["card-flip"])
        #expect(publication.count == 8 + 3 * 7)
        #expect(Array(publication.prefix(8)) == ["EVAL", ClusterKeys.publishScenesScript, "1", "layercast:scene-ids", "cards", "2500",
                                                  "layercast:scene:", "layercast:scene-nodes:"])
        #expect(Array(publication[8..<14]) == ["book", other.fingerprint(of: "book"), "", "card-flip", other.fingerprint(of: "card-flip"),
                                                JSONValue.object(other.fields["card-flip"] ?? [:]).serialized()])
        #expect(other.leaving(node: "cards").first == ["ZREM", "layercast:scene-nodes:book", "cards"])
    }

    @Test func aNodeReadsTheFieldsOfTheScenesItLacksOnceAndTheirLivenessEachTime() {
        let cards = Self.scenes(cardTitle: "Card flip")
        let fingerprint = cards.fingerprint(of: "card-flip") ?? ""
        let fields = JSONValue.object(cards.fields["card-flip"] ?? [:]).serialized()
        func reply(_ items: [(String, String, Int, String)]) -> RedisReply {
            .array(items.flatMap { [RedisReply.string(Array($0.0.utf8)), .string(Array($0.1.utf8)), .integer($0.2), .string(Array($0.3.utf8))] })
        }
        var cluster = ClusterScenes()
        let first = cluster.reading(own: Self.scenes(), timing: Self.timing)
        #expect(Array(first.prefix(8)) == ["EVAL", ClusterKeys.readScenesScript, "1", "layercast:scene-ids", "layercast:scene:",
                                            "layercast:scene-nodes:", "layercast:alive:", "2500"])
        #expect(Array(first.dropFirst(8)) == ["book", "own", "cubes", "own", "radar", "own", "rain", "own", "reveal", "own", "snow", "own"])
        cluster.read(reply([("card-flip", fingerprint, 1, fields)]))
        #expect(cluster.fields(of: "card-flip")?["title"] == "Card flip")
        #expect(cluster.fields(of: "no-such-scene") == nil)
        // Known now: its fingerprint goes with the next read, whose reply leaves the fields out.
        #expect(Array(cluster.reading(own: Self.scenes(), timing: Self.timing).suffix(2)) == ["card-flip", fingerprint])
        cluster.read(reply([("card-flip", fingerprint, 1, "")]))
        #expect(cluster.fields(of: "card-flip")?["title"] == "Card flip")
        // No live node runs it: not offered, though still known.
        cluster.read(reply([("card-flip", fingerprint, 0, "")]))
        #expect(cluster.fields(of: "card-flip") == nil)
        #expect(cluster.scenes["card-flip"]?.fields["title"] == "Card flip")
        // Empty fields under another fingerprint, fields naming another scene, and an absent scene are left out.
        cluster.read(reply([("card-flip", "s-0000000000000000", 1, "")]))
        #expect(cluster.scenes.isEmpty)
        cluster.read(reply([("radar", fingerprint, 1, fields)]))
        #expect(cluster.scenes.isEmpty)
        cluster.read(reply([("card-flip", fingerprint, 1, fields)]))
        cluster.read(.error("ERR"))
        #expect(cluster.fields(of: "card-flip") != nil)
        cluster.read(reply([]))
        #expect(cluster.scenes.isEmpty)
    }

    @Test func aRoomIsAskedOfANodeThatRunsItsSceneTheSameOneWhoeverAsks() {
        let running = ["cards-2", "cards-1"]
        #expect(ClusterScenes.runners(.array([.string(Array("cards-2".utf8)), .string(Array("cards-1".utf8))])) == ["cards-1", "cards-2"])
        #expect(ClusterScenes.runners(.error("ERR")) == [])
        // Picked by the room's key: FNV-1a of "card-flip/table" is even, so the first of two.
        #expect(NodeScenes.hash(Self.key) % 2 == 0)
        #expect(ClusterScenes.placementTarget(for: Self.key, among: running, besides: "plain") == "cards-1")
        #expect(ClusterScenes.placementTarget(for: Self.key, among: running, besides: "other-edge") == "cards-1")
        // Rooms spread over both.
        let targets = Set((0..<20).compactMap { ClusterScenes.placementTarget(for: "card-flip/r\($0)", among: running, besides: "plain") })
        #expect(targets == ["cards-1", "cards-2"])
        // The origin the room was relayed from is avoided while another runs the scene; the asker is never asked.
        #expect(ClusterScenes.placementTarget(for: Self.key, among: running, besides: "plain", avoiding: "cards-1") == "cards-2")
        #expect(ClusterScenes.placementTarget(for: Self.key, among: ["cards-1"], besides: "plain", avoiding: "cards-1") == "cards-1")
        #expect(ClusterScenes.placementTarget(for: Self.key, among: ["plain"], besides: "plain") == nil)
        #expect(ClusterScenes.placementTarget(for: Self.key, among: [], besides: "plain") == nil)
        #expect(ClusterScenes.scene(of: Self.key) == "card-flip")
        #expect(ClusterScenes.scene(of: "no-slash") == nil)
        #expect(ClusterScenes.runnersReading(for: "no-slash", timing: Self.timing) == nil)
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
        // The runners read then (`sceneRunnersScript`: those whose heartbeat is there) are cards-2
        // alone, which is asked and takes the lease.
        let running = ["cards-1", "cards-2"].filter { redis.isAlive($0, at: clock.now) }
        #expect(running == ["cards-2"])
        let target = ClusterScenes.placementTarget(for: Self.key, among: running, besides: "plain", avoiding: "cards-1")
        #expect(target == "cards-2")
        var successor = Self.leases("cards-2", on: clock)
        guard let acquisition = successor.acquire(Self.key) else { Issue.record("no acquisition"); return }
        #expect(successor.answered(acquisition, redis.run(acquisition, from: "cards-2", at: clock.now, timing: Self.timing)) == .place(.here))
        clock.now += Self.timing.period
        guard let location = plain.locate(Self.key) else { Issue.record("no location"); return }
        #expect(plain.answered(location, redis.run(location, from: "plain", at: clock.now, timing: Self.timing)) == .place(.relayed(from: "cards-2")))
    }

    /// In a real redis-server: two nodes publish their scenes (the fields once), a third reads those
    /// it lacks, live while a node that runs them has its heartbeat; a dead node's entries stop
    /// counting with its heartbeat and are deleted at the next write after `reportExpiry`; a
    /// starting node whose scene differs from a live node's is refused, naming both.
    @Test func theScriptsAndTheStartCheckInRedis() throws {
        let server = try RedisTestServer()
        let redis = try RedisConnection(host: "127.0.0.1", port: server.port, database: 0, timeout: 1)
        let cards = Self.scenes(cardTitle: "Card flip")
        let expiry = "2500"
        for node in ["cards-1", "cards-2", "plain"] { _ = try redis.command(["SET", ClusterKeys.heartbeat(node), "k", "PX", "60000"]) }
        // Without fields, an absent scene is named back; with them it is written.
        let missing = try redis.command(cards.publication(node: "cards-1", expiry: expiry, withFields: []))
        #expect(Set(ClusterScenes.runners(missing)) == Set(cards.fields.keys))
        #expect(try redis.command(cards.publication(node: "cards-1", expiry: expiry, withFields: Set(cards.fields.keys))) == .array([]))
        #expect(try redis.command(cards.publication(node: "cards-2", expiry: expiry, withFields: [])) == .array([]))
        #expect(try redis.command(Self.scenes().publication(node: "plain", expiry: expiry, withFields: [])) == .array([]))
        #expect(try redis.command(["HMGET", ClusterKeys.scene("card-flip"), "fingerprint", "node"])
                == .array([.string(Array((cards.fingerprint(of: "card-flip") ?? "").utf8)), .string(Array("cards-2".utf8))]))
        let ttl = try redis.command(["PTTL", ClusterKeys.scene("card-flip")])
        #expect(ttl != .integer(-1) && ttl != .integer(-2))
        var cluster = ClusterScenes()
        cluster.read(try redis.command(cluster.reading(own: Self.scenes(), timing: Self.timing)))
        #expect(cluster.scenes.keys.sorted() == ["card-flip"])
        #expect(cluster.fields(of: "card-flip") == cards.fields["card-flip"])
        // The next read leaves the fields out and keeps them.
        guard case .array(let again) = try redis.command(cluster.reading(own: Self.scenes(), timing: Self.timing)) else {
            Issue.record("no reply"); return
        }
        #expect(again.count == 4 && again[3] == .string([]))
        cluster.read(.array(again))
        #expect(cluster.fields(of: "card-flip") == cards.fields["card-flip"])
        let runners = try #require(ClusterScenes.runnersReading(for: "card-flip/table", timing: Self.timing))
        #expect(runners == ["EVAL", ClusterKeys.sceneRunnersScript, "1", "layercast:scene-nodes:card-flip", "layercast:alive:", "2500"])
        #expect(ClusterScenes.runners(try redis.command(runners)) == ["cards-1", "cards-2"])
        // cards-1 dies: it stops counting at once; with cards-2 gone too, no live node runs card-flip.
        _ = try redis.command(["DEL", ClusterKeys.heartbeat("cards-1")])
        #expect(ClusterScenes.runners(try redis.command(runners)) == ["cards-2"])
        _ = try redis.command(["DEL", ClusterKeys.heartbeat("cards-2")])
        #expect(ClusterScenes.runners(try redis.command(runners)) == [])
        cluster.read(try redis.command(cluster.reading(own: Self.scenes(), timing: Self.timing)))
        #expect(cluster.fields(of: "card-flip") == nil)
        // An entry written more than `reportExpiry` ago (planted at 0 ms) goes at the next write; a node leaving takes its own.
        _ = try redis.command(["ZADD", ClusterKeys.sceneNodes("radar"), "0", "gone"])
        _ = try redis.command(Self.scenes().publication(node: "plain", expiry: expiry, withFields: []))
        #expect(try redis.command(["ZSCORE", ClusterKeys.sceneNodes("radar"), "gone"]) == .null)
        for command in Self.scenes().leaving(node: "plain") { _ = try redis.command(command) }
        #expect(try redis.command(["ZSCORE", ClusterKeys.sceneNodes("radar"), "plain"]) == .null)
        #expect(try redis.command(["ZSCORE", ClusterKeys.sceneNodes("radar"), "cards-2"]) != .null)
        // A scene whose hash is gone leaves the ids at the next read.
        _ = try redis.command(["DEL", ClusterKeys.scene("card-flip")])
        cluster.read(try redis.command(cluster.reading(own: Self.scenes(), timing: Self.timing)))
        #expect(cluster.scenes.isEmpty)
        #expect(try redis.command(["SISMEMBER", ClusterKeys.sceneIDs, "card-flip"]) == .integer(0))

        // The start check: the same scenes agree; another radar of a live node does not.
        let ourRegistry = Self.ours
        _ = try redis.command(["SET", ClusterKeys.heartbeat("cards-1"), "k", "PX", "60000"])
        try ClusterNode.agreeOnScenes(at: server.address, node: "plain", registry: ourRegistry)
        var another = NodeScenes(ourRegistry).fields["radar"] ?? [:]
        another["title"] = "Another radar"
        let theirs = NodeScenes.fingerprint(JSONValue.object(another).serialized())
        _ = try redis.command(["HSET", ClusterKeys.scene("radar"), "fingerprint", theirs, "fields", JSONValue.object(another).serialized(),
                               "node", "cards-1"])
        let refusal = #expect(throws: ClusterError.self) {
            try ClusterNode.agreeOnScenes(at: server.address, node: "plain", registry: ourRegistry)
        }
        #expect(refusal?.message.hasPrefix("node cards-1 of the cluster runs another scene \"radar\" (fingerprint \(theirs);") == true)
        // Its own earlier publication (a restart under the same id) and a dead node's are no conflict.
        try ClusterNode.agreeOnScenes(at: server.address, node: "cards-1", registry: ourRegistry)
        _ = try redis.command(["DEL", ClusterKeys.heartbeat("cards-1")])
        try ClusterNode.agreeOnScenes(at: server.address, node: "plain", registry: ourRegistry)
    }
}

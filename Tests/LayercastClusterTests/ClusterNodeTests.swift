@testable import LayercastCluster
import LayercastEngine
import LayercastHub
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Logging
import Testing

/// A node's handling of what its link brings (docs/cluster.md): connecting and losing Redis,
/// lease answers, relayed frames and events, forwarded input and commands and their answers,
/// full-frame and placement requests, deliveries, the timer's renewals and the cut-off, on a
/// real hub and a `FakeClusterLink`, on one manual clock. No Redis: ClusterLinkTests and
/// tests/integration/test_cluster.py run the link and whole nodes against a real one.
@Suite struct ClusterNodeTests {
    /// A node on a fake link, with its hub on an `EmbeddedTransport`, both on `clock`.
    final class Node {
        let name: String
        let clock: ManualClock
        let transport: EmbeddedTransport
        let hub: Hub
        let link: FakeClusterLink
        let node: ClusterNode

        init(_ name: String, clock: ManualClock, firstClient: Int = 1) {
            self.name = name
            self.clock = clock
            transport = EmbeddedTransport(clock: clock, firstClient: firstClient)
            var logger = Logger(label: "cluster-node-tests")
            logger.logLevel = .critical
            let ledger = LedgerServices(MemoryLedger())
            var configuration = HubConfiguration(scenes: try! SceneRegistry(SceneCatalog.all))
            configuration.adminToken = ClusterNodeTests.adminToken
            hub = Hub(configuration: configuration, transport: transport, identities: ClusterNodeTests.identities, ledger: ledger,
                      services: SceneServices(awarding: ledger, rounds: ledger, logger: logger), logger: logger)
            link = FakeClusterLink(beatConfirmedAt: clock.now)
            node = ClusterNode(node: name, address: try! RedisAddress("redis://127.0.0.1:6379"), hub: hub, link: link,
                               timing: ClusterTiming(), clock: clock, logger: logger)
            hub.cluster = node
        }

        /// Posts `events` and lets the node handle them, as the hub's thread does when notified.
        func handle(_ events: ClusterLink.Event...) {
            for event in events { link.post(event) }
            node.handleEvents()
        }

        /// A spectator of room `lobby` of `scene`.
        func spectator(_ scene: String = "radar") -> ClientID {
            let id = transport.makeClientID()
            hub.connect(id, join: JoinRequest.parse(["scene": scene, "role": "spectator"], identities: ClusterNodeTests.identities),
                        address: "10.0.0.1")
            return id
        }

        /// Connects to Redis and answers the lease of room `key` with `holder`; the requests made
        /// on the way are taken.
        func place(_ key: String, holder: String) {
            handle(.connected)
            let acquisition = link.takeCommands().first { $0.arguments.prefix(2) == ["EVAL", ClusterKeys.acquireScript] && $0.arguments[3] == ClusterKeys.lease(key) }
            handle(.reply(tag: acquisition!.tag, .string(Array(holder.utf8))))
        }

        /// One tick, the clock moving a tick interval first; the link confirms the heartbeat, as
        /// the real one does every `period`.
        func tick() {
            clock.advance(by: hub.tickInterval)
            link.beatConfirmedAt = clock.now
            hub.tick()
        }

        /// The messages `client` can be written now.
        func messages(_ client: ClientID) -> [JSONValue] {
            transport.read(client, from: hub).compactMap { if case .message(let value) = $0 { value } else { nil } }
        }

        /// The value of counter or gauge `name` in the node's `/metrics` lines.
        func metric(_ name: String) -> Int? {
            node.metricsText.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
        }
    }

    static let adminToken = "cluster-admin-token"
    static let identities = IdentityPolicy(tokenSecret: nil, allowAnonymous: true, pseudonyms: PlayerPseudonyms(secret: Array("cluster-tests".utf8)))
    static let key = "radar/lobby"

    /// The frame message's JSON of a published frame.
    private static func frame(_ message: ClusterMessage) -> JSONValue? {
        guard case .frame(_, let text) = message else { return nil }
        return try? Array(text).withUnsafeBytes { bytes throws(JSONParseError) in try JSONValue.parse(bytes: bytes) }
    }

    @Test func startingSubscribesToTheNodesChannelAndStoppingReleasesWhatItHolds() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        n1.node.start()
        #expect(n1.link.started)
        guard case .subscribe(let channel)? = n1.link.take().first else { Issue.record("no subscription"); return }
        #expect(channel == "layercast:node:n1")

        _ = n1.spectator()
        n1.place(Self.key, holder: "n1")
        _ = n1.link.take()
        n1.node.stop()
        #expect(n1.link.stopped)
        let commands = n1.link.takeCommands().map(\.arguments)
        #expect(commands.contains(["EVAL", ClusterKeys.releaseScript, "1", "layercast:lease:radar/lobby", "n1"]))
        #expect(commands.last == ["DEL", "layercast:alive:n1"])
    }

    @Test func connectingPublishesTheScenesAndAcquiresTheOpenRoomsLeases() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator()
        #expect(n1.link.take().isEmpty, "nothing goes to Redis before the link connects")
        #expect(n1.hub.source(of: Self.key) == .placing)

        n1.handle(.connected)
        let commands = n1.link.takeCommands().map(\.arguments)
        #expect(commands.count == 3)
        #expect(commands.first?.prefix(2) == ["EVAL", ClusterKeys.publishScenesScript])
        #expect(commands.dropFirst().first?.prefix(2) == ["EVAL", ClusterKeys.readScenesScript])
        #expect(commands.last == ["EVAL", ClusterKeys.acquireScript, "1", "layercast:lease:radar/lobby", "n1", "2000", "layercast:alive:"])
        #expect(n1.metric("layercast_cluster_connected") == 1)
        #expect(n1.metric("layercast_cluster_redis_reconnects_total") == 0)
    }

    @Test func aLeaseWonPlacesTheRoomHereAndItsFramesArePublishedInFullFirst() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        let spectator = n1.spectator()
        n1.place(Self.key, holder: "n1")
        #expect(n1.hub.source(of: Self.key) == .scene)
        n1.tick()
        n1.tick()
        let published = try n1.link.takePublished()
        #expect(published.map(\.channel) == ["layercast:room:radar/lobby", "layercast:room:radar/lobby"])
        #expect(published.map { Self.frame($0.message)?["full"]?.boolValue } == [true, false])
        #expect(published.map { Self.frame($0.message)?["n"]?.intValue } == [1, 2])
        guard case .frame(let origin, _)? = published.first?.message else { Issue.record("not a frame"); return }
        #expect(origin == "n1")
        #expect(n1.messages(spectator).filter { $0["type"]?.stringValue == "frame" }.last?["n"]?.intValue == 2)
        #expect(n1.metric("layercast_cluster_frames_published_total") == 2)
        #expect(n1.metric("layercast_cluster_placement_changes_total") == 1)
        #expect(n1.metric("layercast_cluster_origin_rooms") == 1)
    }

    @Test func aLeaseHeldElsewhereRelaysTheRoomAndAsksItsOriginForAFullFrame() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator()
        n1.place(Self.key, holder: "n2")
        #expect(n1.hub.source(of: Self.key) == .origin("n2"))
        let requests = n1.link.take()
        guard case .subscribe(let channel)? = requests.first else { Issue.record("no subscription: \(requests)"); return }
        #expect(channel == "layercast:room:radar/lobby")
        let published = requests.compactMap { request -> (String, ClusterMessage)? in
            guard case .publish(let channel, let payload) = request else { return nil }
            return try? (channel, ClusterMessage(payload, onRoomChannel: false))
        }
        #expect(published.map(\.0) == ["layercast:node:n2", "layercast:node:n2"])
        guard case .fullFrameRequest(let room)? = published.first?.1 else { Issue.record("no full-frame request"); return }
        #expect(room == Self.key)
        guard case .input(let joined)? = published.last?.1 else { Issue.record("the join is not forwarded"); return }
        #expect(joined == ForwardedInput(room: Self.key, node: "n1", client: "c1", player: nil, name: nil, action: .joined))
        #expect(n1.metric("layercast_cluster_relayed_rooms") == 1)
        #expect(n1.metric("layercast_cluster_placement_changes_total") == 1)
    }

    /// n2 runs the room and n1 relays it, each on its own clock; the test carries what each
    /// publishes to the other.
    @Test func relayedFramesReachTheClientsHereAndAGapAsksForAFullFrame() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000)), n2 = Node("n2", clock: ManualClock(now: 5000), firstClient: 1000)
        _ = n2.spectator()
        n2.place(Self.key, holder: "n2")
        let far = n1.spectator()
        n1.place(Self.key, holder: "n2")
        _ = n1.messages(far)
        for (channel, message) in try n1.link.takePublished() where channel == "layercast:node:n2" {
            n2.handle(.message(channel: channel, payload: message.bytes))  // the full-frame request, the join
        }
        #expect(n2.metric("layercast_cluster_inputs_resolved_total") == 1)

        var relayed: [Int] = []
        for tick in 0..<12 {
            n2.tick()
            for (channel, message) in try n2.link.takePublished() where channel == "layercast:room:radar/lobby" {
                if tick == 6 { continue }  // a frame lost on the way
                n1.handle(.message(channel: channel, payload: message.bytes))
            }
            n1.tick()
            relayed += n1.messages(far).filter { $0["type"]?.stringValue == "frame" }.compactMap { $0["n"]?.intValue }
        }
        #expect(relayed.first == 1)
        #expect(relayed == Array(1...6), "nothing after the gap applies")
        #expect(n1.metric("layercast_cluster_frames_relayed_total") == 6)
        #expect(n1.metric("layercast_cluster_frame_gaps_total") == 5)
        let requests = try n1.link.takePublished()
        #expect(requests.count == 1, "at most one full-frame request per \(ClusterTiming().fullFrameRequests) s")
        guard case .fullFrameRequest(let room)? = requests.first?.message else { Issue.record("no full-frame request"); return }
        #expect(requests.first?.channel == "layercast:node:n2" && room == Self.key)

        n2.handle(.message(channel: "layercast:node:n2", payload: ClusterMessage.fullFrameRequest(room: Self.key).bytes))
        n2.tick()
        let full = try #require(try n2.link.takePublished().first { Self.frame($0.message) != nil })
        #expect(Self.frame(full.message)?["full"]?.boolValue == true)
        n1.handle(.message(channel: full.channel, payload: full.message.bytes))
        n1.tick()
        #expect(n1.messages(far).filter { $0["type"]?.stringValue == "frame" }.map { $0["n"]?.intValue } == [13])
    }

    @Test func aFrameFromAnotherNodeMakesItTheRoomsOrigin() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator()
        n1.place(Self.key, holder: "n2")
        _ = n1.link.take()
        let frame = #"{"type":"frame","n":0,"t":0,"full":true,"layers":[]}"#
        n1.handle(.message(channel: "layercast:room:radar/lobby", payload: ClusterMessage.frame(origin: "n3", text: ArraySlice(frame.utf8)).bytes))
        #expect(n1.hub.source(of: Self.key) == .origin("n3"))
        #expect(n1.metric("layercast_cluster_placement_changes_total") == 2)
        let joins = try n1.link.takePublished().compactMap { published -> String? in
            guard case .input(let input) = published.message, input.action == .joined else { return nil }
            return "\(published.channel) \(input.client)"
        }
        #expect(joins == ["layercast:node:n3 c1"], "the new origin hears of the clients here")
    }

    @Test func relayedEventsAndDeliveriesReachTheirClients() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        let spectator = n1.spectator()
        n1.place(Self.key, holder: "n2")
        _ = n1.messages(spectator)
        let event = #"{"type":"event","name":"ping","data":{"n":1}}"#
        n1.handle(.message(channel: "layercast:room:radar/lobby", payload: ClusterMessage.event(origin: "n2", text: ArraySlice(event.utf8)).bytes))
        let delivery = #"{"type":"error","code":"rate_limited","message":"slow down"}"#
        n1.handle(.message(channel: "layercast:node:n1", payload: ClusterMessage.delivery(client: "c1", text: ArraySlice(delivery.utf8)).bytes),
                  .message(channel: "layercast:node:n1", payload: ClusterMessage.delivery(client: "c99", text: ArraySlice(delivery.utf8)).bytes))
        let messages = n1.messages(spectator)
        #expect(messages == [try JSONValue.parse(event), try JSONValue.parse(delivery)])
    }

    @Test func aForwardedCommandIsRunHereAndAnsweredToItsNode() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator("snow")
        n1.place("snow/lobby", holder: "n1")
        _ = n1.link.take()
        let command = ForwardedCommand(id: 7, node: "n2", room: "snow/lobby", command: "snow", body: Array(#"{"rate":12}"#.utf8))
        let moved = ForwardedCommand(id: 8, node: "n2", room: "snow/elsewhere", command: "snow", body: Array("{}".utf8))
        n1.handle(.message(channel: "layercast:node:n1", payload: ClusterMessage.command(command).bytes),
                  .message(channel: "layercast:node:n1", payload: ClusterMessage.command(moved).bytes))
        let answers = try n1.link.takePublished()
        #expect(answers.map(\.channel) == ["layercast:node:n2", "layercast:node:n2"])
        guard case .answer(7, .success(let done))? = answers.first?.message else { Issue.record("\(answers)"); return }
        #expect(done.status == 200 && done.document["rate"]?.doubleValue == 12 && done.document["room"]?.stringValue == "lobby")
        guard case .answer(8, .failure(let refused))? = answers.last?.message else { Issue.record("\(answers)"); return }
        #expect(refused.status == 503 && refused.code == .notReady)
    }

    @Test func theOriginsAnswerReachesTheCommandWaitingHere() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator("snow")
        n1.place("snow/lobby", holder: "n2")
        _ = n1.link.take()
        var answer: Result<CommandAnswer, APIError>?
        n1.hub.perform(command: "snow", room: "lobby", body: Array(#"{"rate":3}"#.utf8), authorization: "Bearer \(Self.adminToken)",
                       oversize: false) { answer = $0 }
        let forwarded = try n1.link.takePublished()
        guard case .command(let command)? = forwarded.first?.message else { Issue.record("not forwarded: \(forwarded)"); return }
        #expect(forwarded.first?.channel == "layercast:node:n2" && command.node == "n1" && command.room == "snow/lobby")
        #expect(answer == nil)
        n1.handle(.message(channel: "layercast:node:n1",
                           payload: ClusterMessage.answer(id: command.id, .success(CommandAnswer(status: 200, ["rate": 3]))).bytes))
        guard case .success(let done)? = answer else { Issue.record("no answer: \(String(describing: answer))"); return }
        #expect(done.status == 200 && done.document == ["rate": 3])
    }

    @Test func aPlacementRequestOpensTheRoomWhereTheRelayLeftOff() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        n1.handle(.connected)
        _ = n1.link.take()
        n1.handle(.message(channel: "layercast:node:n1", payload: ClusterMessage.placementRequest(room: "radar/moved", frame: 41, time: 12.5).bytes),
                  .message(channel: "layercast:node:n1", payload: ClusterMessage.placementRequest(room: "no-such-scene/x", frame: 1, time: 1).bytes))
        #expect(n1.hub.source(of: "radar/moved") == .placing)
        #expect(n1.hub.source(of: "no-such-scene/x") == nil)
        let acquisition = try #require(n1.link.takeCommands().first)
        #expect(acquisition.arguments == ["EVAL", ClusterKeys.acquireScript, "1", "layercast:lease:radar/moved", "n1", "2000", "layercast:alive:"])
        n1.handle(.reply(tag: acquisition.tag, .string(Array("n1".utf8))))
        #expect(n1.hub.source(of: "radar/moved") == .scene)
        #expect(n1.hub.newestFrame(of: "radar/moved")?.number == 42)
        #expect(n1.hub.newestFrame(of: "radar/moved").map { $0.time >= 12.5 } == true)
    }

    @Test func losingRedisDegradesTheNodeAndAnswersTheRoomsFromItsOwnReport() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator()
        n1.place(Self.key, holder: "n1")
        _ = n1.link.take()
        #expect(n1.node.health["status"]?.stringValue == "ok")
        var document: JSONValue?
        n1.node.roomsDocument(fps: 30) { document = $0 }
        #expect(n1.link.takeCommands().map(\.arguments) == [["HGETALL", "layercast:nodes"]])
        n1.handle(.disconnected("Connection refused"))
        let rooms = try #require(document?["rooms"]?.arrayValue)
        #expect(rooms.compactMap { $0["room"]?.stringValue } == ["lobby"])
        #expect(rooms.first?["origin"]?.stringValue == "n1" && rooms.first?["clients"]?["spectator"]?.intValue == 1)
        #expect(n1.node.health["status"]?.stringValue == "degraded")
        #expect(n1.node.health["reason"]?.stringValue == "redis: unreachable (Connection refused); reconnecting")
        #expect(n1.metric("layercast_cluster_connected") == 0)
        #expect(n1.metric("layercast_cluster_redis_errors_total") == 1)
        n1.handle(.connected)
        #expect(n1.metric("layercast_cluster_redis_reconnects_total") == 1)
        #expect(n1.node.health["status"]?.stringValue == "ok")
    }

    @Test func anUnreadableMessageChangesNothing() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator()
        n1.place(Self.key, holder: "n1")
        _ = n1.link.take()
        let before = n1.node.metricsText
        n1.handle(.message(channel: "layercast:node:n1", payload: Array("Xnonsense".utf8)),
                  .message(channel: "layercast:room:radar/lobby", payload: Array("F".utf8)))
        #expect(n1.link.take().isEmpty)
        #expect(n1.node.metricsText == before)
        #expect(n1.hub.source(of: Self.key) == .scene)
    }

    @Test func theTimerRenewsTheLeasesOfTheRoomsHeldHere() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        _ = n1.spectator()
        n1.place(Self.key, holder: "n1")
        _ = n1.link.take()
        let renewal = ["EVAL", ClusterKeys.renewScript, "1", "layercast:lease:radar/lobby", "n1", "2000"]
        n1.handle(.timer)
        #expect(n1.link.takeCommands().filter { $0.arguments == renewal }.count == 1, "at once after connecting")
        n1.clock.advance(by: ClusterTiming().period)
        n1.handle(.timer)
        #expect(n1.link.takeCommands().filter { $0.arguments == renewal }.isEmpty, "not before `renewal` has passed")
        n1.clock.advance(by: ClusterTiming().renewal - ClusterTiming().period)
        n1.handle(.timer)
        let renewals = n1.link.takeCommands().filter { $0.arguments == renewal }
        #expect(renewals.count == 1)
        n1.handle(.reply(tag: renewals[0].tag, .null))  // Redis lost the lease: acquire it again
        #expect(n1.link.takeCommands().map(\.arguments) == [["EVAL", ClusterKeys.acquireScript, "1", "layercast:lease:radar/lobby", "n1", "2000", "layercast:alive:"]])
    }

    @Test func aNodeWhoseHeartbeatGoesUnconfirmedStepsDownAndRefusesJoins() throws {
        let n1 = Node("n1", clock: ManualClock(now: 1000))
        let spectator = n1.spectator()
        n1.place(Self.key, holder: "n1")
        _ = n1.messages(spectator)
        #expect(n1.node.joinRefusal == nil)
        n1.clock.advance(by: ClusterTiming().heartbeatExpiry)  // no beat confirmed since the link was made
        n1.hub.tick()
        #expect(n1.hub.source(of: Self.key) == nil)
        #expect(n1.transport.read(spectator, from: n1.hub).last == .close(code: 1012, reason: "stepped down: redis"))
        #expect(n1.node.joinRefusal != nil)
        #expect(n1.node.health["reason"]?.stringValue?.hasPrefix("redis: no heartbeat confirmed for 500 ms") == true)
        n1.link.beatConfirmedAt = n1.clock.now
        #expect(n1.node.joinRefusal == nil)
    }
}

@testable import LayercastHub
import Foundation
import LayercastLedger
import LayercastJSON
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing

/// Two hubs joined by `PairedCluster` (no Redis): an origin running the room and an edge relaying
/// it. The edge's clients see the origin's frames, never a delta that does not apply, and their
/// input is resolved by the origin.
@Suite struct RelayTests {
    /// One node of a two-node cluster whose messages go straight to the other hub.
    final class PairedCluster: HubCluster {
        let node: String
        let relayKeepalive = 0.125
        weak var peer: Hub?
        weak var other: PairedCluster?
        var peerNode = ""
        /// Frames the origin published that are not delivered (a lost message).
        var dropNextFrame = false
        private(set) var fullRequests = 0
        private(set) var published: [Bool] = []  // each published frame: full?

        init(node: String) { self.node = node }

        /// Joins hub `o` (node "origin") and hub `e` (node "edge") in memory: each one's cluster
        /// delivers to the other.
        static func join(origin o: HubHarness, edge e: HubHarness) -> (oc: PairedCluster, ec: PairedCluster) {
            let oc = PairedCluster(node: "origin")
            let ec = PairedCluster(node: "edge")
            (oc.peer, oc.other, oc.peerNode) = (e.hub, ec, "edge")
            (ec.peer, ec.other, ec.peerNode) = (o.hub, oc, "origin")
            o.hub.cluster = oc
            e.hub.cluster = ec
            return (oc, ec)
        }

        var health: JSONValue { ["status": "ok", "node": .string(node)] }
        var metricsText: String { "" }
        /// What `Hub.connect` refuses joins with (a node cut off from Redis); nil: it takes them.
        var joinRefusal: String?
        /// The rooms this node said it closed, with whether it was their origin.
        private(set) var closedRooms: [(key: String, origin: Bool)] = []
        func ticked() {}
        func roomsDocument(fps: Int, answer: @escaping (JSONValue) -> Void) { answer(["rooms": []]) }
        func opened(_ key: String) {}
        func closed(_ key: String, origin: Bool) { closedRooms.append((key, origin)) }

        func publish(frame: EncodedMessage, in key: String) {
            let text = frame.withBytes { Array($0) }
            published.append((try? text.withUnsafeBytes { bytes throws(JSONParseError) in try JSONValue.parse(bytes: bytes) })?["full"]?.boolValue ?? false)
            if dropNextFrame {
                dropNextFrame = false
                return
            }
            if text.withUnsafeBytes({ peer?.relayFrame($0, in: key) }) == .gap { other?.requestFullFrame(key, from: node) }
        }

        func publish(event: EncodedMessage, in key: String) { event.withBytes { peer?.relayEvent($0, in: key) } }
        func deliver(_ message: EncodedMessage, to client: String, on node: String) { message.withBytes { peer?.deliver($0, to: client) } }
        func forward(_ input: ForwardedInput, to origin: String) { peer?.resolve(input) }
        func forward(_ command: ForwardedCommand, to origin: String) {
            peer?.perform(command) { [weak other, node] in other?.answer(command.id, $0, to: node) }
        }
        func answer(_ id: Int, _ answer: Result<CommandAnswer, APIError>, to node: String) { peer?.answered(id, answer) }

        func requestFullFrame(_ key: String, from origin: String) {
            fullRequests += 1
            peer?.publishFrames(of: key, until: .infinity, full: true)
        }

        /// Scenes the peer runs and this node lacks, as the peer would publish them.
        var peerScenes: [String: JSONObject] = [:]
        func sceneFields(of id: String) -> JSONObject? { peerScenes[id] }
    }

    /// An origin hub (`o`, clients from c1) and an edge hub (`e`, clients from c1000) on one
    /// ledger, the radar room `lobby` placed on the origin and relayed by the edge.
    private static func pair(scene: String = "radar", edgeScenes: SceneRegistry = HubHarness.scenes) throws
        -> (o: HubHarness, e: HubHarness, oc: PairedCluster, ec: PairedCluster) {
        let o = HubHarness()
        let e = HubHarness(firstClient: 1000, sharing: o, scenes: edgeScenes)
        let (oc, ec) = PairedCluster.join(origin: o, edge: e)
        return (o, e, oc, ec)
    }

    /// The display list a client rebuilds from what it was sent (protocol.md's algorithm).
    private static func rebuild(_ frames: [JSONValue], from list: DisplayList = DisplayList()) throws -> [Int: DisplayList] {
        var lists: [Int: DisplayList] = [:]
        var current = list
        for frame in frames {
            current = frame["full"]?.boolValue == true ? try DisplayList(fullFrame: frame) : try FrameDelta(deltaFrame: frame).applied(to: current)
            lists[frame["n"]!.intValue!] = current
        }
        return lists
    }

    @Test func theEdgesClientsRebuildTheOriginsDisplayLists() throws {
        let (o, e, oc, _) = try Self.pair()
        let near = o.join(["scene": "radar", "role": "spectator"])
        o.hub.place("radar/lobby", origin: nil)
        let far = e.join(["scene": "radar", "role": "spectator"])
        e.hub.place("radar/lobby", origin: "origin")  // asks the origin for a full frame
        var nearFrames = o.messages(near).of("frame")
        var farFrames = e.messages(far).of("frame")
        for _ in 0..<45 {
            o.tick()
            e.tick()
            nearFrames += o.messages(near).of("frame")
            farFrames += e.messages(far).of("frame")
        }
        #expect(farFrames.first?["full"]?.boolValue == true)
        #expect(farFrames.count == 45)
        #expect(farFrames.dropFirst().allSatisfy { $0["full"]?.boolValue == false })
        let nearLists = try Self.rebuild(nearFrames)
        let farLists = try Self.rebuild(farFrames)
        #expect(farLists.keys.sorted() == Array(1...45))
        for (n, list) in farLists { #expect(list == nearLists[n], "frame \(n)") }
        #expect(oc.published.filter { $0 }.count == 1)  // one full frame, then deltas
        #expect(e.hub.metrics.fullFramesEncoded == 0 && e.hub.metrics.deltaFramesEncoded == 0)  // the origin's text, relayed
    }

    /// A still room (the rain between rains) is published to the other nodes as keepalives every
    /// `relayKeepalive`, so a relay never hears silence from a live origin; the edge's own clients
    /// still get one a second, each an empty delta from the frame they hold.
    @Test func aStillRoomIsPublishedAsKeepalivesOftenEnoughForRelays() throws {
        let (o, e, oc, _) = try Self.pair()
        _ = o.join(["scene": "rain", "role": "spectator"])
        o.hub.place("rain/lobby", origin: nil)
        let far = e.join(["scene": "rain", "role": "spectator"])
        e.hub.place("rain/lobby", origin: "origin")  // asks the origin for a full frame
        o.tick()
        e.tick()
        let first = try #require(e.messages(far).of("frame").first)
        #expect(first["full"]?.boolValue == true)
        let publishedBefore = oc.published.count
        var farFrames: [JSONValue] = []
        for _ in 0..<(2 * o.hub.fps) {
            o.tick()
            e.tick()
            farFrames += e.messages(far).of("frame")
        }
        // Every fourth tick at 30 fps (0.133 s >= 0.125 s): 15 in 2 s.
        #expect(oc.published.count - publishedBefore == 15)
        #expect(farFrames.count == 2, "\(farFrames.map { $0["n"]?.intValue })")
        for frame in farFrames {
            let range = try #require(FrameMessage.deltaRange(frame))
            #expect(range.contains(first["n"]?.intValue ?? -1), "applies to the full frame the client holds")
            #expect(frame["set"] == nil && frame["add"] == nil)
        }
    }

    @Test func aLostFrameMeansAFullFrameNeverADeltaThatDoesNotApply() throws {
        let (o, e, oc, ec) = try Self.pair()
        _ = o.join(["scene": "radar", "role": "spectator"])
        o.hub.place("radar/lobby", origin: nil)
        let far = e.join(["scene": "radar", "role": "spectator"])
        e.hub.place("radar/lobby", origin: "origin")
        var farFrames: [JSONValue] = []
        for tick in 1...20 {
            if tick == 8 { oc.dropNextFrame = true }
            o.tick()
            farFrames += e.messages(far).of("frame")
        }
        let numbers = farFrames.map { $0["n"]!.intValue! }
        #expect(!numbers.contains(8) && !numbers.contains(9))  // 8 was lost; 9, a delta against it, refused
        #expect(farFrames.first { $0["n"]?.intValue == 10 }?["full"]?.boolValue == true)
        #expect(ec.fullRequests == 2)  // on joining, and on the gap
        let lists = try Self.rebuild(farFrames)
        #expect(lists[20] != nil)
    }

    @Test func anEdgePlayersTapIsResolvedByTheOriginAndAnsweredOnTheEdge() throws {
        let (o, e, _, _) = try Self.pair(scene: "rain")
        _ = o.join(["scene": "rain", "role": "spectator"])
        o.hub.place("rain/lobby", origin: nil)
        let far = e.player(scene: "rain", id: 1)
        e.hub.place("rain/lobby", origin: "origin")
        o.tick()
        _ = e.messages(far)
        // No rain yet: the origin answers the tap "closed", to the edge's client alone.
        e.send(far, #"{"type":"tap","x":200,"y":300,"viewTime":0.5,"id":7}"#)
        let answers = e.messages(far).of("event", "tap")
        #expect(answers.map { $0["data"]?["result"]?.stringValue } == ["closed"])
        #expect(answers.first?["data"]?["id"]?.intValue == 7)
        // A spectator cannot tap, on the edge too: refused there, never forwarded.
        let watcher = e.join(["scene": "rain", "role": "spectator"])
        _ = e.messages(watcher)
        e.send(watcher, #"{"type":"tap","x":1,"y":1,"viewTime":0.5}"#)
        #expect(e.messages(watcher).of("error").map { $0["code"]?.stringValue } == ["forbidden"])
    }

    @Test func aRainStartedOnTheEdgeRunsOnTheOriginAndPaysTheEdgesPlayer() throws {
        let (o, e, _, _) = try Self.pair()
        let near = o.join(["scene": "rain", "role": "spectator"])
        o.hub.place("rain/lobby", origin: nil)
        let far = e.player(scene: "rain", id: 3)
        e.hub.place("rain/lobby", origin: "origin")
        let started = try e.command("rain", body: #"{"seed":7,"duration":6,"pool":100,"winners":10,"minCoins":1,"maxCoins":30}"#).get()
        let rain = try #require(started.document["rain"]?.intValue)
        #expect(o.rainScene()?.phase != nil && e.rainScene()?.phase == .idle)  // it runs on the origin only
        o.tick(untilRainIs: .raining)
        o.tick(60)
        _ = e.messages(far)
        _ = o.messages(near)
        let player = try #require(e.hub.rooms["rain/lobby"]?.clients.first?.player?.id)
        let target = try #require(o.claimablePoint(by: player))
        e.send(far, #"{"type":"tap","x":\#(target.point.x),"y":\#(target.point.y),"viewTime":\#(target.time),"id":1}"#)
        let answer = try #require(e.messages(far).of("event", "tap").first)
        #expect(answer["data"]?["result"]?.stringValue == "award")
        let record = try #require(try o.ledger.round(id: Int64(rain)))
        #expect(record.awards.map(\.player) == [player])
        #expect(o.messages(near).of("event", "award").map { $0["data"]?["player"]?.stringValue } == [player])
    }

    @Test func takingTheRoomOverGoesOnWithTheNextNumberInFull() throws {
        let (o, e, _, _) = try Self.pair()
        _ = o.join(["scene": "radar", "role": "spectator"])
        o.hub.place("radar/lobby", origin: nil)
        let far = e.join(["scene": "radar", "role": "spectator"])
        e.hub.place("radar/lobby", origin: "origin")
        for _ in 0..<10 { o.tick() }
        let before = e.messages(far).of("frame")
        #expect(before.last?["n"]?.intValue == 10)
        e.hub.cluster = nil  // the origin is gone; the edge runs the room from here
        e.hub.place("radar/lobby", origin: nil)
        var after: [JSONValue] = []
        for _ in 0..<2 {
            e.tick()
            after += e.messages(far).of("frame")
        }
        #expect(after.map { $0["n"]?.intValue } == [11, 12])
        #expect(after.map { $0["full"]?.boolValue } == [true, false])
        #expect(after[0]["t"]!.doubleValue! >= before.last!["t"]!.doubleValue!)
    }

    @Test func inputWhileTheRoomIsBeingPlacedIsRefusedAsNotReady() throws {
        let (_, e, _, _) = try Self.pair()
        let far = e.player(scene: "radar", id: 2)
        _ = e.messages(far)
        e.send(far, #"{"type":"tap","x":1,"y":1,"viewTime":0}"#)
        #expect(e.messages(far).of("error").map { $0["code"]?.stringValue } == ["not_ready"])
    }

    /// An edge that lacks the scene (docs/cluster.md, "Scenes"): while no node publishes it, a
    /// join is refused as on one node; once the origin does, the edge welcomes its player as the
    /// origin would, never runs the room itself, relays it from the origin that opened it for
    /// placement with no client of its own, and forwards the player's tap there.
    @Test func anEdgeWithoutTheSceneRelaysItFromANodeThatRunsIt() throws {
        let (o, e, _, ec) = try Self.pair(edgeScenes: try SceneRegistry(SceneCatalog.all.filter { $0.info.id != "rain" }))
        let early = e.player(scene: "rain", id: 1)
        let refusal = try #require(e.messages(early).of("error").first)
        #expect(refusal["code"]?.stringValue == "unknown_scene" && refusal["message"]?.stringValue == #"no scene "rain"; see /api/scenes"#)
        #expect(e.hub.rooms.isEmpty)

        ec.peerScenes["rain"] = SceneFields.of(RainScene.info)
        let far = e.player(scene: "rain", id: 2)
        let welcome = try #require(e.messages(far).of("welcome").first)
        let room = try #require(e.hub.rooms["rain/lobby"])
        #expect(room.controller == nil && room.source == .placing)
        o.hub.openForPlacement("rain/lobby", after: -1, time: 0)
        #expect(o.hub.rooms["rain/lobby"]?.clients.isEmpty == true)
        o.hub.place("rain/lobby", origin: nil)
        e.hub.place("rain/lobby", origin: nil)  // never here: the edge cannot run it
        #expect(room.source == .placing)
        e.hub.place("rain/lobby", origin: "origin")
        let near = o.join(["scene": "rain", "role": "player", "player": "anon-hubtestplayer0003"])
        let nearWelcome = try #require(o.messages(near).of("welcome").first)
        func sceneFields(_ welcome: JSONValue) -> JSONObject {
            JSONObject(welcome.objectValue?.pairs.filter { !["client", "time", "player"].contains($0.key) }.map { ($0.key, $0.value) } ?? [])
        }
        #expect(sceneFields(welcome) == sceneFields(nearWelcome))
        o.tick(3)
        let frames = e.messages(far).of("frame")
        // The newest list in full: the rain between rains is still, so ticks 2 and 3 changed
        // nothing and were not relayed (`sparse`); frame 1 holds the list of frame 3.
        #expect(frames.map { $0["n"]?.intValue } == [1])
        #expect(frames.first?["full"]?.boolValue == true)
        // No rain yet: the origin answers the tap "closed", to the edge's player alone.
        e.send(far, #"{"type":"tap","x":200,"y":300,"viewTime":0.5,"id":9}"#)
        #expect(e.messages(far).of("event", "tap").map { $0["data"]?["result"]?.stringValue } == ["closed"])
        // A room of a scene nobody publishes is still unknown.
        let lost = e.join(["scene": "no-such-scene", "role": "spectator"])
        #expect(e.messages(lost).of("error").map { $0["code"]?.stringValue } == ["unknown_scene"])
    }

    /// A node asked to run a room after its origin died goes on from the newest frame the asking
    /// relay had (frame 41 at 12.5 s): its first frame is 42, in full, no earlier in media time.
    @Test func aRoomOpenedForPlacementGoesOnFromTheRelaysNewestFrame() throws {
        let (o, _, _, _) = try Self.pair()
        o.hub.openForPlacement("radar/lobby", after: 41, time: 12.5)
        o.hub.place("radar/lobby", origin: nil)
        let near = o.join(["scene": "radar", "role": "spectator"])
        let frames = o.messages(near).of("frame")
        #expect(frames.map { $0["n"]?.intValue } == [42])
        #expect(frames.first?["full"]?.boolValue == true)
        #expect(try #require(frames.first?["t"]?.doubleValue) >= 12.5)
        // A room that is open already, or a scene this node lacks, is not opened again.
        o.hub.openForPlacement("radar/lobby", after: 7, time: 1)
        o.tick()
        #expect(o.messages(near).of("frame").map { $0["n"]?.intValue } == [43])
        o.hub.openForPlacement("card-flip/table", after: -1, time: 0)
        #expect(o.hub.rooms["card-flip/table"] == nil)
    }
}

/// A rain survives its origin: the node that takes the room over rebuilds it from the ledger.
@Suite struct TakeoverTests {
    @Test func theRainGoesOnAfterItsOriginDiesWithItsAwardsKept() throws {
        let o = HubHarness()
        let e = HubHarness(firstClient: 1000, sharing: o)
        let (oc, ec) = RelayTests.PairedCluster.join(origin: o, edge: e)
        let near = o.player(scene: "rain", id: 1)
        o.hub.place("rain/lobby", origin: nil)
        let far = e.player(scene: "rain", id: 2)
        e.hub.place("rain/lobby", origin: "origin")
        let started = try o.command("rain", body: #"{"seed":11,"duration":8,"pool":100,"winners":12,"minCoins":1,"maxCoins":30}"#).get()
        let rain = Int64(try #require(started.document["rain"]?.intValue))
        o.tick(untilRainIs: .raining)
        o.tick(45)
        _ = o.messages(near)
        let winner = try #require(o.hub.rooms["rain/lobby"]?.clients.first?.player?.id)
        let target = try #require(o.claimablePoint(by: winner))
        o.send(near, #"{"type":"tap","x":\#(target.point.x),"y":\#(target.point.y),"viewTime":\#(target.time),"id":1}"#)
        let won = try #require(o.messages(near).of("event", "tap").first { $0["data"]?["result"]?.stringValue == "award" })
        let packet = try #require(won["data"]?["packet"]?.intValue)
        _ = e.messages(far)

        // The origin dies: the edge takes the room over where its last relayed frame left it.
        oc.peer = nil
        ec.peer = nil
        e.hub.place("rain/lobby", origin: nil)
        let scene = try #require(e.rainScene())
        #expect(scene.rain?.id == rain && scene.phase == .raining)
        #expect(e.hub.metrics.takeovers == [.resumed: 1])
        #expect(e.hub.metrics.sceneTakeovers == ["rain": [.resumed: 1]])
        #expect(e.hub.metricsText().contains(#"layercast_takeover_rounds_total{outcome="resumed"} 1"#))
        #expect(scene.rain?.claimed[packet] != nil)  // the award stands: that packet stays taken
        let afterTakeover = e.messages(far).of("event", "rain")
        #expect(afterTakeover.last?["data"]?["phase"]?.stringValue == "raining")
        // The edge's player can still win: the rain goes on, on the edge.
        e.tick(10)
        let player = try #require(e.hub.rooms["rain/lobby"]?.clients.first?.player?.id)
        let next = try #require(e.claimablePoint(by: player))
        _ = e.messages(far)
        e.send(far, #"{"type":"tap","x":\#(next.point.x),"y":\#(next.point.y),"viewTime":\#(next.time),"id":2}"#)
        #expect(e.messages(far).of("event", "tap").first?["data"]?["result"]?.stringValue == "award")
        e.tick(untilRainIs: .results)
        e.tick()
        let record = try #require(try e.ledger.round(id: rain))
        #expect(record.status == .finished)
        #expect(record.awards.count == 2)
        #expect(Set(record.awards.map(\.item)).count == 2)
        #expect(record.awards.first?.item == packet && record.awards.first?.player == winner)
    }

    @Test func aRainThatCannotBeRebuiltIsRecordedInterrupted() throws {
        let h = HubHarness()
        h.hub.cluster = RelayTests.PairedCluster(node: "edge")
        let id = try h.ledger.beginRound(NewRound(scene: "rain", room: "lobby", seed: 5, salt: "not hex", commitment: "", settings: RainRoundSettings(
            duration: 8, pool: 100, winners: 12, minCoins: 1, maxCoins: 30, width: 414, height: 736, maxAwardsPerPlayer: 0,
            maxCoinsPerPlayer: 0, minVisible: 0.3, tapRate: 8, players: 1).json, mediaStart: 5, prizes: [:], createdAt: Date()))
        _ = h.join(["scene": "rain", "role": "spectator"])
        h.hub.place("rain/lobby", origin: nil)
        #expect(try h.ledger.round(id: id)?.status == .interrupted)
        #expect(h.rainScene()?.phase == .idle)
        #expect(h.hub.metrics.takeovers == [.unreadable: 1])
        #expect(h.hub.metrics.sceneTakeovers == ["rain": [.unreadable: 1]])
    }
}

import Foundation
import LayercastJSON
import Testing
@testable import LayercastHub

/// A node that may no longer hold a room steps down from it (docs/cluster.md, "A cut-off node
/// steps down"): the room stops here, its clients are closed with 1012 and the reason, and a node
/// cut off from the cluster refuses joins the same way. Two hubs on one memory ledger, in memory.
@Suite struct StepDownTests {
    /// What `client` is written now: its messages, then its close, if any.
    private static func closing(_ h: HubHarness, _ client: ClientID) -> (messages: [JSONValue], close: (Int, String)?) {
        let written = h.read(client)
        let messages = written.compactMap { if case .message(let value) = $0 { value } else { nil } }
        let close = written.compactMap { if case .close(let code, let reason) = $0 { (code, reason) } else { nil } }.first
        return (messages, close)
    }

    /// The origin's award after another node claimed the rain is fenced: the origin steps down
    /// from the room, closing its player with 1012, and leaves the rain running for the new origin.
    @Test func aFencedAwardStepsTheOriginDownAndLeavesTheRainToTheNewOrigin() throws {
        let o = HubHarness()
        let e = HubHarness(firstClient: 1000, sharing: o)
        let (oc, ec) = RelayTests.PairedCluster.join(origin: o, edge: e)
        let near = o.player(scene: "rain", id: 1)
        o.hub.place("rain/lobby", origin: nil)
        _ = e.player(scene: "rain", id: 2)
        e.hub.place("rain/lobby", origin: "origin")
        let started = try o.command("rain", body: #"{"seed":12,"duration":8,"pool":100,"winners":12,"minCoins":1,"maxCoins":30}"#).get()
        let rain = Int64(try #require(started.document["rain"]?.intValue))
        o.tick(untilRainIs: .raining)
        o.tick(45)
        _ = o.messages(near)

        // The edge takes the room over (the origin was cut off) and claims the rain; the origin
        // does not know yet and still runs its copy.
        (oc.peer, ec.peer) = (nil, nil)
        e.hub.place("rain/lobby", origin: nil)
        let winner = try #require(o.hub.rooms["rain/lobby"]?.clients.first?.player?.id)
        let target = try #require(o.claimablePoint(by: winner))
        o.send(near, #"{"type":"tap","x":\#(target.point.x),"y":\#(target.point.y),"viewTime":\#(target.time),"id":1}"#)

        let (messages, close) = Self.closing(o, near)
        #expect(messages.of("error").map { $0["code"]?.stringValue } == ["ledger_unavailable"])
        #expect(messages.of("event", "tap").isEmpty)
        #expect(close?.0 == 1012 && close?.1 == "stepped down: fenced")
        #expect(o.hub.rooms["rain/lobby"] == nil)
        #expect(oc.closedRooms.map(\.key) == ["rain/lobby"] && oc.closedRooms.map(\.origin) == [true])
        #expect(o.hub.metrics.stepDowns == [.fenced: 1])
        #expect(o.hub.metricsText().contains(#"layercast_stepdowns_total{reason="fenced"} 1"#))
        let record = try #require(try o.ledger.round(id: rain))
        #expect(record.status == .running && record.awards.isEmpty)  // the new origin's to run and end
    }

    /// A step-down for a lost Redis closes a relayed room's clients too (its frames stopped), each
    /// with its reason; a later join opens the room afresh, to be placed again.
    @Test func aStepDownClosesEveryClientOfTheRoomWithItsReason() throws {
        let e = HubHarness(firstClient: 1000)
        let ec = RelayTests.PairedCluster(node: "edge")
        e.hub.cluster = ec
        let watchers = [e.join(["scene": "radar", "role": "spectator"]), e.join(["scene": "radar", "role": "spectator"])]
        e.hub.place("radar/lobby", origin: "origin")
        let other = e.join(["scene": "radar", "room": "other", "role": "spectator"])
        watchers.forEach { _ = e.read($0) }

        e.hub.stepDown("radar/lobby", reason: .redis)
        for watcher in watchers {
            let (messages, close) = Self.closing(e, watcher)
            #expect(messages.isEmpty)
            #expect(close?.0 == 1012 && close?.1 == "stepped down: redis")
        }
        #expect(Self.closing(e, other).close == nil)  // another room is not touched
        #expect(e.hub.rooms["radar/lobby"] == nil && e.hub.rooms["radar/other"] != nil)
        #expect(ec.closedRooms.map(\.key) == ["radar/lobby"] && ec.closedRooms.map(\.origin) == [false])
        #expect(e.hub.metrics.stepDowns == [.redis: 1])
        e.hub.stepDown("radar/lobby", reason: .redis)  // no longer open: nothing happens
        #expect(e.hub.metrics.stepDowns == [.redis: 1])

        let again = e.join(["scene": "radar", "role": "spectator"])
        #expect(e.hub.source(of: "radar/lobby") == .placing)
        #expect(Self.closing(e, again).close == nil)
    }

    /// While the cluster refuses joins (this node cut off from Redis), a join gets `not_ready`
    /// with the cluster's words and close 1012, and opens no room.
    @Test func aCutOffNodeRefusesJoinsWithNotReadyAnd1012() throws {
        let e = HubHarness(firstClient: 1000)
        let ec = RelayTests.PairedCluster(node: "edge")
        e.hub.cluster = ec
        ec.joinRefusal = "this node cannot reach the cluster's Redis, so it serves no room now; reconnect to reach another node"
        let refused = e.join(["scene": "radar", "role": "spectator"])
        let (messages, close) = Self.closing(e, refused)
        #expect(messages.map { $0["code"]?.stringValue } == ["not_ready"])
        #expect(messages.first?["message"]?.stringValue == ec.joinRefusal)
        #expect(close?.0 == 1012 && close?.1 == "not_ready")
        #expect(e.hub.rooms.isEmpty)
        #expect(e.hub.metrics.rejected[.notReady] == 1)

        ec.joinRefusal = nil
        let taken = e.join(["scene": "radar", "role": "spectator"])
        #expect(Self.closing(e, taken).messages.first?["type"]?.stringValue == "welcome")
    }
}

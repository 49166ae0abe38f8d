import Foundation
import LayercastEngine
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastHub

extension HubHarness {
    /// Runs the admin command `command` in `room` with `body`.
    func command(_ command: String, room: String = "lobby", body: String = "", token: String? = HubHarness.adminToken)
        -> Result<CommandAnswer, APIError> {
        hub.perform(command: command, room: room, body: Array(body.utf8), authorization: token.map { "Bearer " + $0 }, oversize: false)
    }

    /// The rain scene of room `room`.
    func rainScene(_ room: String = "lobby") -> RainScene? { hub.rooms["rain/\(room)"]?.stage?.scene as? RainScene }

    /// Ticks in steps of 0.1 s until the rain of `room` is in `phase` (at most `limit` seconds).
    func tick(untilRainIs phase: RainScene.Phase, room: String = "lobby", limit: Double = 60) {
        var waited = 0.0
        while rainScene(room)?.phase != phase, waited < limit {
            transport.advance(by: 0.1)
            hub.tick()
            waited += 0.1
        }
    }

    /// A point of the scene where a tap by `player` at the room's current media time claims a
    /// packet, and that time: probed through the room's tap path (`SceneStage.tap`) with no claim
    /// committed, so nothing changes and nothing is announced.
    func claimablePoint(by player: String, room: String = "lobby") -> (point: CGPoint, time: Double)? {
        guard let stage = hub.rooms["rain/\(room)"]?.stage, stage.scene is RainScene else { return nil }
        let time = stage.now
        for y in stride(from: 4.0, to: 736, by: 12) {
            for x in stride(from: 4.0, to: 414, by: 12) {
                let point = CGPoint(x: x, y: y)
                let probe = stage.tap(at: point, viewTime: time, now: time, by: Tapper(client: "probe", player: player),
                                           awarding: CommitsNothing())
                if case .claim = probe.outcome { return (point, time) }
            }
        }
        return nil
    }

    /// Starts a rain, waits until packets fall, and makes one player tap a packet it can claim;
    /// returns that player.
    func claimingTap() throws -> ClientID {
        let tapper = player(scene: "rain", id: 1)
        _ = read(tapper)
        _ = try command("rain", body: #"{"seed":7,"duration":6,"pool":100,"winners":10,"minCoins":1,"maxCoins":30}"#).get()
        tick(untilRainIs: .raining)
        tick(60)  // two seconds in: packets on screen for longer than minVisible
        _ = read(tapper)
        let publicID = try #require(hub.rooms["rain/lobby"]?.clients.first { $0.player != nil }?.player?.id)
        let target = try #require(claimablePoint(by: publicID))
        send(tapper, #"{"type":"tap","x":\#(target.point.x),"y":\#(target.point.y),"viewTime":\#(target.time),"id":1}"#)
        return tapper
    }
}

/// An awarding service that commits nothing: a tap through it decides and changes nothing.
private final class CommitsNothing: ImmediateAwarding {
    struct Refused: Error {}

    func commit(_ award: Award) throws -> Int { throw Refused() }
}

/// A rain from its admin command to its results, through the hub on a manual clock, with the
/// ledger behind a scripted awarding service.
@Suite struct RainTests {
    @Test func aFailedCommitAnnouncesNothingAndTheNextTapWins() throws {
        let h = HubHarness()
        let watcher = h.join(["scene": "rain", "role": "spectator"], address: "10.0.0.2")
        h.awarding.failures = 1
        let tapper = try h.claimingTap()
        let refused = h.messages(tapper)
        #expect(refused.of("error").map { $0["code"]?.stringValue } == ["ledger_unavailable"])
        #expect(refused.of("event", "award").isEmpty && refused.of("event", "tap").isEmpty)
        #expect(h.messages(watcher).of("event", "award").isEmpty)
        #expect(h.rainScene()?.rain?.claimed.isEmpty == true)
        #expect(h.awarding.committed.isEmpty)

        // The packet stayed free: the same tap again wins it, committed before it is announced.
        let publicID = try #require(h.hub.rooms["rain/lobby"]?.clients.first { $0.role == .player }?.player?.id)
        let target = try #require(h.claimablePoint(by: publicID))
        h.transport.advance(by: 0.2)
        h.send(tapper, #"{"type":"tap","x":\#(target.point.x),"y":\#(target.point.y),"viewTime":\#(target.time),"id":2}"#)
        let won = h.messages(tapper)
        let award = try #require(won.of("event", "award").first)
        #expect(won.of("event", "tap").first?["data"]?["result"]?.stringValue == "award")
        #expect(won.of("event", "tap").first?["data"]?["id"]?.intValue == 2)
        #expect(h.awarding.committed.count == 1)
        let rainID = try #require(award["data"]?["rain"]?.intValue)
        let record = try #require(try h.ledger.round(id: Int64(rainID)))
        #expect(record.awards.map(\.item) == [award["data"]?["packet"]?.intValue])
        #expect(record.awards.map(\.coins) == [award["data"]?["coins"]?.intValue])
        #expect(h.messages(watcher).of("event", "award").count == 1)
        #expect(h.hub.metrics.awards == 1)

        // The rain runs to its results; the ledger records it finished.
        h.tick(untilRainIs: .results)
        h.tick()
        let finished = try h.ledger.round(id: Int64(rainID))
        #expect(finished?.status == .finished)
        #expect(h.messages(watcher).of("event", "rain").contains { $0["data"]?["phase"]?.stringValue == "results" })
    }

    @Test func theRainCommandAnswersAndRefusesASecondRain() throws {
        let h = HubHarness()
        let answer = try h.command("rain", room: "night", body: #"{"seed":3,"duration":5,"pool":100,"winners":10,"minCoins":1,"maxCoins":30}"#).get()
        #expect(answer.status == 201)
        #expect(answer.document["room"]?.stringValue == "night")
        #expect(answer.document["commitment"]?.stringValue?.count == 64)
        #expect(answer.document["seed"] == nil)
        guard case .failure(let busy) = h.command("rain", room: "night") else { Issue.record("a second rain started"); return }
        #expect((busy.status, busy.code.rawValue) == (409, "rain_running"))
        // A running rain keeps its room open with nobody in it.
        h.tick(untilRainIs: .raining, room: "night")
        #expect(h.hub.rooms["rain/night"] != nil)
    }

    @Test func adminCommandsAreCheckedBeforeAnyRoomOpens() throws {
        let h = HubHarness()
        let refusals: [(Result<CommandAnswer, APIError>, UInt32, String)] = [
            (h.command("dance"), 404, "not_found"),
            (h.command("rain", token: nil), 401, "unauthorized"),
            (h.command("rain", token: "wrong"), 401, "unauthorized"),
            (h.command("rain", room: "a b"), 400, "bad_room"),
            (h.command("rain", body: "{"), 400, "bad_json"),
            (h.command("rain", body: #"{"duration":0}"#), 400, "bad_field"),
            (h.command("snow", body: #"{"rate":-1}"#), 400, "bad_field"),
            (h.command("snow", body: #"{"images":["nope"]}"#), 400, "bad_field"),
        ]
        for (result, status, code) in refusals {
            guard case .failure(let error) = result else { Issue.record("accepted: \(code)"); continue }
            #expect((error.status, error.code.rawValue) == (status, code))
        }
        #expect(h.hub.rooms.isEmpty)
        let disabled = HubHarness { $0.adminToken = nil }
        guard case .failure(let off) = disabled.command("snow") else { Issue.record("the admin API was on"); return }
        #expect((off.status, off.code.rawValue) == (403, "admin_disabled"))
    }

    @Test func theSnowCommandChangesWhatFallsForTheRoom() throws {
        let h = HubHarness()
        let watcher = h.join(["scene": "snow", "room": "yard", "role": "spectator"])
        _ = h.read(watcher)
        let answer = try h.command("snow", room: "yard", body: #"{"images":["petal"],"rate":12,"mode":"exact"}"#).get()
        #expect(answer.status == 200)
        #expect(answer.document["images"] == ["petal"])
        #expect(answer.document["rate"]?.doubleValue == 12)
        #expect((h.hub.rooms["snow/yard"]?.stage?.scene as? SnowScene)?.settings.images == ["petal"])
    }
}

import Foundation
import LayercastJSON
@testable import LayercastLedger
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastHub

/// A takeover's claims and a forwarded command wait on a real SQLite ledger on its own thread,
/// stalled by another process holding the file's write lock: the hub's ticks go on and its other
/// rooms keep their frames; the late answer is delivered when the ledger lands, or the deadline's
/// failure then, and nothing heard is lost or doubled.
@Suite(.serialized) struct TakeoverStallTests {
    /// Two hubs on one SQLite ledger, each with its own ledger thread: an origin `o` (clients from
    /// c1) running a rain in `rain/lobby` with one award to `near`, relayed by an edge `e` (clients
    /// from c1000) to its player `far`; the edge also runs the radar room `radar/calm`.
    private final class Pair {
        let directory: String
        let os: LedgerServices
        let es: LedgerServices
        let o: HubHarness
        let e: HubHarness
        let oc: RelayTests.PairedCluster
        let ec: RelayTests.PairedCluster
        let near: ClientID
        let far: ClientID
        let calm: ClientID

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("layercast-takeover-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            os = LedgerServices(LedgerThread(try SQLiteLedger(directory: directory)) {}, deadline: 1.5)
            es = LedgerServices(LedgerThread(try SQLiteLedger(directory: directory)) {}, deadline: 1.5)
            o = HubHarness(services: os)
            e = HubHarness(firstClient: 1000, services: es)
            (oc, ec) = RelayTests.PairedCluster.join(origin: o, edge: e)
            near = o.player(scene: "rain", id: 1)
            far = e.player(scene: "rain", id: 2)
            calm = e.join(["scene": "radar", "room": "calm", "role": "spectator"])
            let (o, e) = (o, e)
            #expect(o.waitForLedger { o.hub.rooms["rain/lobby"]?.clients.count == 1 })
            #expect(e.waitForLedger { e.hub.rooms["rain/lobby"]?.clients.count == 1 })
            o.hub.place("rain/lobby", origin: nil)
            #expect(o.waitForLedger { o.hub.rooms["rain/lobby"]?.takeover == nil })  // nothing to claim
            e.hub.place("rain/lobby", origin: "origin")
            e.hub.place("radar/calm", origin: nil)
            _ = (o.messages(near), e.messages(far))
        }

        deinit {
            os.stop(waiting: 10)
            es.stop(waiting: 10)
            try? FileManager.default.removeItem(atPath: directory)
        }

        var ledgerPath: String { directory + "/layercast.sqlite" }
        var calmFrame: Int { e.hub.rooms["radar/calm"]?.frameNumber ?? -1 }
        var rainFrame: Int { e.hub.rooms["rain/lobby"]?.frameNumber ?? -1 }

        /// Starts a rain on the origin and pays `near` one packet: the rain's id and the packet.
        func rainWithOneAward() throws -> (rain: Int64, packet: Int) {
            var started: Result<CommandAnswer, APIError>?
            o.hub.perform(command: "rain", room: "lobby", body: Array(#"{"seed":21,"duration":40,"pool":100,"winners":12,"minCoins":1,"maxCoins":30}"#.utf8),
                          authorization: "Bearer " + HubHarness.adminToken, oversize: false) { started = $0 }
            #expect(o.waitForLedger { started != nil })
            let rain = Int64(try #require(try started?.get().document["rain"]?.intValue))
            o.tick(untilRainIs: .raining)
            o.tick(45)
            _ = o.messages(near)
            let winner = try #require(o.hub.rooms["rain/lobby"]?.clients.first?.player?.id)
            let target = try #require(o.claimablePoint(by: winner))
            o.send(near, #"{"type":"tap","x":\#(target.point.x),"y":\#(target.point.y),"viewTime":\#(target.time),"id":1}"#)
            var heard: [JSONValue] = []
            #expect(o.waitForLedger {
                heard += o.messages(near).of("event", "tap")
                return !heard.isEmpty
            })
            #expect(heard.first?["data"]?["result"]?.stringValue == "award")
            _ = e.messages(far)
            return (rain, try #require(heard.first?["data"]?["packet"]?.intValue))
        }

        /// Waits (at most 10 s) until `services`' ledger thread runs `operation`: then the call is
        /// stuck on the lock, not waiting in the queue for the thread to be scheduled.
        func stuck(_ services: LedgerServices, on operation: String) -> Bool {
            let end = Date(timeIntervalSinceNow: 10)
            while Date() < end {
                if services.calls.runningOperation == operation { return true }
                usleep(2000)
            }
            return false
        }

        /// Ticks the edge 0.1 s apart, pausing 20 ms of real time after each so its ledger thread
        /// keeps up, until `done()` or `seconds` of its clock (takeover retries back off up to 8 s).
        func tickEdge(until done: () -> Bool, seconds: Double) -> Bool {
            for _ in 0..<Int(seconds * 10) {
                _ = tickEdge(1)
                if done() { return true }
                usleep(20_000)
            }
            return false
        }

        /// Starts a rain through the edge while another process holds the ledger's write lock, ticks
        /// the origin `ticks` times 0.1 s apart (each must return at once, and no answer may come),
        /// then releases the lock: the answer as it comes, and the frames the origin's radar room made
        /// meanwhile.
        func forwardRainWhileTheOriginsLedgerIsStuck(ticks: Int) throws -> (answer: () -> Result<CommandAnswer, APIError>?, calmFrames: Int) {
            _ = o.join(["scene": "radar", "room": "calm", "role": "spectator"])
            o.hub.place("radar/calm", origin: nil)
            let calm = { [o] in o.hub.rooms["radar/calm"]?.frameNumber ?? -1 }
            var answer: Result<CommandAnswer, APIError>?
            let blocker = try WriteLockHolder(path: ledgerPath)
            e.hub.perform(command: "rain", room: "lobby", body: Array(#"{"seed":5,"duration":6,"pool":100,"winners":12,"minCoins":1,"maxCoins":30}"#.utf8),
                          authorization: "Bearer " + HubHarness.adminToken, oversize: false) { answer = $0 }
            #expect(stuck(os, on: "begin_round"))
            let before = calm()
            var slowest = 0.0
            for _ in 0..<ticks {
                o.transport.advance(by: 0.1)
                let began = Date()
                o.hub.tick()
                slowest = max(slowest, Date().timeIntervalSince(began))
            }
            #expect(slowest < 0.5)
            if ticks < 15 { #expect(answer == nil) }
            try blocker.release()
            return ({ answer }, calm() - before)
        }

        /// Round `id`'s status, read through `h`'s ledger thread.
        func status(of id: Int64, in h: HubHarness) -> RoundStatus? {
            var status: Result<RoundStatus?, LedgerError>?
            h.hub.ledger.read({ ledger throws(LedgerError) in try ledger.round(id: id)?.status }) { status = $0 }
            guard h.waitForLedger({ status != nil }) else { return nil }
            return try? status?.get()
        }

        /// The origin dies (its messages stop both ways).
        func originDies() { (oc.peer, ec.peer) = (nil, nil) }

        /// Ticks the edge `count` times 0.1 s apart; the slowest tick's wall-clock seconds.
        func tickEdge(_ count: Int) -> Double {
            var slowest = 0.0
            for _ in 0..<count {
                e.transport.advance(by: 0.1)
                let began = Date()
                e.hub.tick()
                slowest = max(slowest, Date().timeIntervalSince(began))
            }
            return slowest
        }

        /// The edge player's tap somewhere on the scene, and the error codes it was answered with.
        func farTapErrors() -> [String?] {
            e.send(far, #"{"type":"tap","x":200,"y":300,"viewTime":\#(e.hub.rooms["rain/lobby"]?.frameTime ?? 0),"id":9}"#)
            return e.messages(far).of("error").map { $0["code"]?.stringValue }
        }
    }

    /// The claims wait on the lock for 1.4 s of the hub's clock: the edge's ticks return at once
    /// and its other room goes on; the taken-over room makes no frame, refuses taps `not_ready`
    /// and holds a command. The claims land within the deadline: the rain resumes with its award,
    /// the held command sees it, and the room's frames go on.
    @Test func aStalledTakeoverHoldsOnlyItsOwnRoomAndResumesTheRainWhenTheClaimsLand() throws {
        let p = try Pair()
        let (rain, packet) = try p.rainWithOneAward()
        p.originDies()

        let blocker = try WriteLockHolder(path: p.ledgerPath)
        let (calmBefore, rainBefore) = (p.calmFrame, p.rainFrame)
        let began = Date()
        p.e.hub.place("rain/lobby", origin: nil)
        #expect(Date().timeIntervalSince(began) < 0.5)
        #expect(p.e.hub.rooms["rain/lobby"]?.awaitsTakeover == true)
        #expect(p.stuck(p.es, on: "claim_rounds"))
        var held: Result<CommandAnswer, APIError>?
        p.e.hub.perform(command: "rain", room: "lobby", body: [], authorization: "Bearer " + HubHarness.adminToken, oversize: false) { held = $0 }
        #expect(p.farTapErrors() == ["not_ready"])
        #expect(p.tickEdge(14) < 0.5)
        #expect(p.calmFrame == calmBefore + 14)
        #expect(p.rainFrame == rainBefore)
        #expect(held == nil)
        #expect(p.e.hub.metrics.takeovers.isEmpty)

        try blocker.release()
        #expect(p.e.waitForLedger { p.e.hub.rooms["rain/lobby"]?.takeover == nil })
        let scene = try #require(p.e.rainScene())
        #expect(scene.rain?.id == rain && scene.phase == .raining)
        #expect(scene.rain?.claimed[packet] != nil)
        #expect(p.e.hub.metrics.takeovers == [.resumed: 1])
        guard case .failure(let refusal)? = held else { Issue.record("the held command was not refused: \(String(describing: held))"); return }
        #expect(refusal.code == .rainRunning)
        #expect(p.e.messages(p.far).of("event", "rain").last?["data"]?["phase"]?.stringValue == "raining")
        _ = p.tickEdge(1)
        #expect(p.rainFrame > rainBefore)
        #expect(p.e.awards(in: rain) == [packet])
    }

    /// The claims are still stuck at the deadline: the room runs without the rain (its frames go
    /// on, no rain may start there), and claims again after the backoff once the ledger is back;
    /// the rain then resumes with its award, and the edge's player is paid once per packet.
    @Test func aTakeoverWhoseClaimsMissTheDeadlineRunsTheRoomAndClaimsAgain() throws {
        let p = try Pair()
        let (rain, packet) = try p.rainWithOneAward()
        p.originDies()

        let blocker = try WriteLockHolder(path: p.ledgerPath)
        let rainBefore = p.rainFrame
        p.e.hub.place("rain/lobby", origin: nil)
        #expect(p.stuck(p.es, on: "claim_rounds"))
        #expect(p.tickEdge(16) < 0.5)  // past the deadline
        let room = try #require(p.e.hub.rooms["rain/lobby"])
        #expect(!room.awaitsTakeover && room.takeover != nil)
        #expect(p.rainFrame > rainBefore)
        #expect(p.e.rainScene()?.phase == .idle)
        #expect(p.e.hub.metrics.takeovers.isEmpty)
        #expect(p.e.hub.healthDocument()["status"]?.stringValue == "degraded")
        var refused: Result<CommandAnswer, APIError>?
        p.e.hub.perform(command: "rain", room: "lobby", body: [], authorization: "Bearer " + HubHarness.adminToken, oversize: false) { refused = $0 }
        guard case .failure(let error)? = refused else { Issue.record("a rain started before the room's rains were claimed"); return }
        #expect(error.status == 503 && error.code == .ledgerUnavailable && error.message.contains("not yet claimed"))

        // The lock goes: the late claim lands (held by nobody), and the retry claims the rain again.
        try blocker.release()
        #expect(p.tickEdge(until: { p.e.hub.rooms["rain/lobby"]?.takeover == nil }, seconds: 20))
        let scene = try #require(p.e.rainScene())
        #expect(scene.rain?.id == rain && scene.phase == .raining)
        #expect(scene.rain?.claimed[packet] != nil)
        #expect(p.e.hub.metrics.takeovers == [.resumed: 1])

        let player = try #require(room.clients.first?.player?.id)
        let next = try #require(p.e.claimablePoint(by: player))
        _ = p.e.messages(p.far)
        p.e.send(p.far, #"{"type":"tap","x":\#(next.point.x),"y":\#(next.point.y),"viewTime":\#(next.time),"id":2}"#)
        var heard: [JSONValue] = []
        #expect(p.e.waitForLedger {
            heard += p.e.messages(p.far).of("event", "tap")
            return !heard.isEmpty
        })
        let second = try #require(heard.first?["data"]?["packet"]?.intValue)
        #expect(heard.first?["data"]?["result"]?.stringValue == "award")
        #expect(p.e.awards(in: rain)?.sorted() == [packet, second].sorted())
    }

    /// A rain started through the edge waits on the origin's stalled ledger while the origin's
    /// ticks and its other room go on. Stuck past the deadline, the edge hears 503
    /// `ledger_unavailable` (before its own 3 s), and the round that lands late is ended
    /// `interrupted` and never runs.
    @Test func aForwardedCommandStuckPastTheDeadlineIsAnswered503AndItsLateRoundNeverRuns() throws {
        let p = try Pair()
        let (answer, calm) = try p.forwardRainWhileTheOriginsLedgerIsStuck(ticks: 16)  // past the deadline
        guard case .failure(let error)? = answer() else { Issue.record("no 503 at the deadline: \(String(describing: answer()))"); return }
        #expect(error.status == 503 && error.code == .ledgerUnavailable)
        #expect(calm == 16)
        #expect(p.o.waitForLedger { p.os.pending == 0 && p.os.degradedReason == nil })
        #expect(p.o.rainScene()?.phase == .idle)
        #expect(p.status(of: 1, in: p.o) == .interrupted)  // recorded after its deadline, so ended
    }

    /// The same, released within the deadline: the edge hears 201 once the round lands, and the
    /// rain runs on the origin.
    @Test func aForwardedCommandIsAnsweredWhenTheLedgerLandsWhileTheOriginTicks() throws {
        let p = try Pair()
        let (answer, calm) = try p.forwardRainWhileTheOriginsLedgerIsStuck(ticks: 10)
        #expect(calm == 10)
        #expect(p.o.waitForLedger { answer() != nil })
        let document = try #require(try answer()?.get())
        #expect(document.status == 201 && document.document["rain"]?.intValue == 1)
        #expect(p.o.rainScene()?.rain?.id == 1)
        #expect(p.status(of: 1, in: p.o) == .running)
    }
}

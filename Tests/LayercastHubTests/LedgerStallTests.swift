import Foundation
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing
@testable import LayercastHub

/// A real SQLite ledger on its own thread, stalled by another process holding the file's write
/// lock: the hub's ticks go on, the tap whose commit is stuck is answered `ledger_unavailable` at
/// its deadline, the award that lands after it is taken back, and the next tap is awarded.
@Suite(.serialized) struct LedgerStallTests {
    @Test func aStalledCommitIsAnsweredUnavailableAtItsDeadlineAndTakenBackWhenItLands() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layercast-stall-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let services = LedgerServices(LedgerThread(try SQLiteLedger(directory: directory)) {}, deadline: 1.5)
        defer { services.stop(waiting: 10) }
        let h = HubHarness(services: services)

        let tapper = h.player(scene: "rain", id: 1)
        #expect(h.waitForLedger { h.messages(tapper).contains { $0.type == "welcome" } })
        var started: Result<CommandAnswer, APIError>?
        h.hub.perform(command: "rain", room: "lobby", body: Array(#"{"seed":7,"duration":6,"pool":100,"winners":10,"minCoins":1,"maxCoins":30}"#.utf8),
                      authorization: "Bearer " + HubHarness.adminToken, oversize: false) { started = $0 }
        #expect(h.waitForLedger { started != nil })
        let rain = try #require(try started?.get().document["rain"]?.doubleValue).rounded()
        h.tick(untilRainIs: .raining)
        h.tick(60)
        _ = h.read(tapper)
        // Those ticks ran the hub's clock faster than real time, so an idle probe made among them
        // may have timed out before the ledger's thread ran it; one read that succeeds, the clock
        // standing still, clears that before the stall begins.
        var settled = false
        services.read({ ledger throws(LedgerError) in try ledger.totalCoins(player: "") }) { settled = (try? $0.get()) != nil }
        #expect(h.waitForLedger { settled && services.pending == 0 })
        #expect(services.degradedReason == nil)

        let blocker = try WriteLockHolder(path: directory + "/layercast.sqlite")
        let publicID = try #require(h.hub.rooms["rain/lobby"]?.clients.first?.player?.id)
        let stuck = try #require(h.claimablePoint(by: publicID))
        h.send(tapper, #"{"type":"tap","x":\#(stuck.point.x),"y":\#(stuck.point.y),"viewTime":\#(stuck.time),"id":1}"#)
        // 1.4 s of ticks on the hub's clock: each returns at once though the commit is stuck, and the tap waits.
        var slowest = 0.0
        for _ in 0..<14 {
            h.transport.advance(by: 0.1)
            let began = Date()
            h.hub.tick()
            slowest = max(slowest, Date().timeIntervalSince(began))
        }
        #expect(slowest < 0.5)
        #expect(h.messages(tapper).filter { $0.type == "error" || $0.name == "tap" }.isEmpty)
        #expect(h.hub.healthDocument()["status"]?.stringValue == "ok")
        h.tick(4)  // past the deadline
        let answered = h.messages(tapper)
        #expect(answered.filter { $0.type == "error" }.map { $0["code"]?.stringValue } == ["ledger_unavailable"])
        #expect(answered.filter { $0.name == "award" || $0.name == "tap" }.isEmpty)
        #expect(h.hub.healthDocument()["status"]?.stringValue == "degraded")
        #expect(h.hub.metricsText().contains("layercast_ledger_timeouts_total{operation=\"award\"} 1\n"))

        // The lock goes; the stuck commit lands after its deadline and is taken back.
        try blocker.release()
        #expect(h.waitForLedger { services.degradedReason == nil && services.pending == 0 && h.awards(in: Int64(rain)) == [] })

        // The next claim is committed and heard: one award, one row.
        let publicPoint = try #require(h.claimablePoint(by: publicID))
        h.send(tapper, #"{"type":"tap","x":\#(publicPoint.point.x),"y":\#(publicPoint.point.y),"viewTime":\#(publicPoint.time),"id":2}"#)
        var heard: [JSONValue] = []
        #expect(h.waitForLedger {
            heard += h.messages(tapper).filter { $0.name == "tap" }
            return !heard.isEmpty
        })
        let packet = try #require(heard.first?["data"]?["packet"]?.doubleValue)
        #expect(heard.map { $0["data"]?["result"]?.stringValue } == ["award"])
        #expect(h.awards(in: Int64(rain)) == [Int(packet)])
        #expect(h.hub.healthDocument()["status"]?.stringValue == "ok")
    }
}

extension HubHarness {
    /// Ticks the hub (its clock standing still) until `done()` or 10 s of real time; whether it was.
    func waitForLedger(_ done: () -> Bool) -> Bool {
        let end = Date(timeIntervalSinceNow: 10)
        while Date() < end {
            hub.tick()
            if done() { return true }
            usleep(2000)
        }
        return false
    }

    /// The items awarded in round `round`, read through the hub's ledger thread (so after every
    /// call made before); nil when the read failed.
    func awards(in round: Int64) -> [Int]? {
        var items: Result<[Int], LedgerError>?
        hub.ledger.read({ ledger throws(LedgerError) in try ledger.round(id: round)?.awards.map(\.item) ?? [] }) { items = $0 }
        guard waitForLedger({ items != nil }) else { return nil }
        return try? items?.get()
    }
}

/// Another process (python3's sqlite3) holding an SQLite file's write lock (BEGIN IMMEDIATE)
/// until `release()`.
final class WriteLockHolder {
    private let process = Process()
    private let input = Pipe()

    init(path: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            sys.stdin.readline()
            c.execute('ROLLBACK')
            """, path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        guard line == "locked\n" else { throw Failure(message: "the lock holder said \(line.debugDescription)") }
    }

    func release() throws {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(message: "the lock holder exited \(process.terminationStatus)") }
    }

    deinit { if process.isRunning { process.terminate() } }

    struct Failure: Error { let message: String }
}

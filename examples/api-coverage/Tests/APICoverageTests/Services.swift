import Layercast

// The services a room lends a controller, written as a scene package's tests would: each answers
// later, when `settle()` runs what waits, as the ledger's thread does.

/// Rounds recorded in memory; `begin`, `end` and `running` answer on `settle()`, or fail when `fails` is set.
final class LaterRounds: RoundRecords {
    /// Every round begun, by id (from 1), and how each ended (`true`: interrupted).
    private(set) var begun: [Int64: RoundStart] = [:]
    private(set) var ended: [Int64: Bool] = [:]
    /// What `running(in:)` gives, by room.
    var stillRunning: [String: [RecordedRound]] = [:]
    var fails = false
    private var waiting: [() -> Void] = []

    func begin(_ round: RoundStart, done: @escaping (Result<Int64, any Error>) -> Void) {
        waiting.append { [self] in
            guard !fails else { return done(.failure(LedgerDown())) }
            let id = Int64(begun.count + 1)
            begun[id] = round
            done(.success(id))
        }
    }

    func end(_ id: Int64, interrupted: Bool, done: @escaping (Result<Void, any Error>) -> Void) {
        waiting.append { [self] in
            guard !fails else { return done(.failure(LedgerDown())) }
            ended[id] = interrupted
            done(.success(()))
        }
    }

    func running(in room: String, done: @escaping (Result<[RecordedRound], any Error>) -> Void) {
        waiting.append { [self] in
            guard !fails else { return done(.failure(LedgerDown())) }
            done(.success(stillRunning.removeValue(forKey: room) ?? []))
        }
    }

    /// Answers every call made so far, in order.
    func settle() {
        let calls = waiting
        waiting = []
        calls.forEach { $0() }
    }
}

/// An awarding service that commits on `settle()`, keeping each player's total.
final class LaterAwarding: Awarding {
    private(set) var totals: [String: Int] = [:]
    private var waiting: [() -> Void] = []

    func commit(_ award: Award, done: @escaping (Result<Int, any Error>) -> Void) {
        waiting.append { [self] in
            totals[award.player, default: 0] += award.claim.coins
            done(.success(totals[award.player]!))
        }
    }

    func settle() {
        let calls = waiting
        waiting = []
        calls.forEach { $0() }
    }
}

/// An awarding service that answers at once and refuses everything: the ledger is down.
final class DownAwarding: ImmediateAwarding {
    func commit(_ award: Award) throws -> Int { throw LedgerDown() }
}

struct LedgerDown: Error {}

/// A room whose monotonic clock is its media clock, moved by the test.
final class TestRoom: ControlledRoom {
    let name: String
    var now: Double = 0
    var hasClients = true
    var playerCount = 1

    init(name: String) { self.name = name }

    func mediaTime(at now: Double) -> Double { now }
}

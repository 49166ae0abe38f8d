import Foundation
import LayercastAudit
import LayercastLedger
import LayercastSceneAPI
import Logging

/// The ledger as the rooms' awarding service and round records, and the hub's reads: every call
/// goes through a `LedgerThread`, so none runs on the hub's thread, and each is answered by its
/// deadline (`deadline` seconds after it is made), with `ledger_unavailable` if the ledger has not
/// answered by then. Every award and every round is committed durably before anyone hears of it;
/// an award whose commit lands after its deadline is taken back (`Ledger.voidAward`), so an award
/// is either heard and recorded or neither (docs/reliability.md, "The ledger's deadline").
///
/// It holds the epoch of each round this node began or claimed (`Ledger.claimRound`), and commits
/// and ends under it: once another node has taken a round's room over and claimed it, this
/// node's awards and end of that round are refused (`fenced`). Use from the hub's thread.
public final class LedgerServices: Awarding, RoundRecords {
    let calls: LedgerThread
    /// Seconds a call may take before it is answered `ledger_unavailable`.
    public let deadline: Double
    /// The hub's clock (its transport's `now`), which deadlines are on; set by the hub.
    var clock: () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    private let logger: Logger
    /// When the ledger was last probed (`probeIfIdle`).
    private var probedAt = -Double.infinity
    /// The epoch this node holds of each round it began (0) or claimed on a takeover.
    private var epochs: [Int64: Int64] = [:]

    /// The default of `--ledger-deadline`: a tap is answered within 2 s with the tick's slack.
    public static let defaultDeadline = 1.5

    /// Services whose calls run on `calls` (the ledger's own thread, or inline for a memory ledger).
    public init(_ calls: LedgerThread, deadline: Double = defaultDeadline, logger: Logger = Logger(label: "layercast.ledger")) {
        self.calls = calls
        self.deadline = deadline
        self.logger = logger
    }

    /// Services that call `ledger` at once on the caller's thread (a memory ledger, tests).
    public convenience init(_ ledger: any Ledger) {
        self.init(LedgerThread(inline: ledger))
    }

    /// The ledger's thread stops (and closes the ledger) with its last user.
    deinit { calls.stop(waiting: 5) }

    // MARK: Awarding

    /// Records the award (at most once per item: the ledger's constraint) and reads the
    /// player's new total, by the deadline.
    public func commit(_ award: Award, done: @escaping (Result<Int, any Error>) -> Void) {
        commit(award, until: clock() + deadline, done: done)
    }

    /// The awarding service of one tap that arrived at `arrival`: its commit's deadline counts from
    /// the tap, not from when the scene got to it (a tap held behind another's commit).
    public func awarding(arrivedAt arrival: Double) -> any Awarding { TapAwarding(services: self, deadline: arrival + deadline) }

    private func commit(_ award: Award, until deadline: Double, done: @escaping (Result<Int, any Error>) -> Void) {
        let claim = award.claim
        let epoch = epochs[claim.round, default: 0]
        let row = AwardRow(id: 0, round: claim.round, item: claim.item, player: award.player, name: award.name,
                           coins: claim.coins, x: claim.point.x, y: claim.point.y, viewTime: claim.time,
                           serverTime: award.serverTime, createdAt: Date())
        calls.submit("award", deadline: deadline, { ledger throws(LedgerError) -> (AwardRow, Int) in
            let stored = try ledger.recordAward(row, epoch: epoch)
            do throws(LedgerError) {
                return (stored, try ledger.totalCoins(player: award.player))
            } catch {
                try? ledger.voidAward(stored.id, round: stored.round, epoch: epoch)  // nobody will hear of it
                throw error
            }
        }, abandoned: { [logger] ledger, recorded in
            // Taken back, or tried again before the next call while the ledger fails (io); a round
            // ended or claimed since keeps it.
            let metadata: Logger.Metadata = ["round": "\(recorded.0.round)", "item": "\(recorded.0.item)", "award": "\(recorded.0.id)"]
            do throws(LedgerError) {
                try ledger.voidAward(recorded.0.id, round: recorded.0.round, epoch: epoch)
                logger.warning("an award committed after its deadline was taken back; its tapper was told ledger_unavailable", metadata: metadata)
                return true
            } catch where error.code == .io || error.code == .open {
                logger.error("an award committed after its deadline is not taken back yet; trying again before the next ledger call",
                             metadata: metadata.merging(["error": "\(error)"]) { $1 })
                return false
            } catch {
                logger.error("an award committed after its deadline could not be taken back; it stands though its tapper was told ledger_unavailable",
                             metadata: metadata.merging(["error": "\(error)"]) { $1 })
                return true
            }
        }, done: { result in done(result.map(\.1).mapError { $0 }) })
    }

    // MARK: RoundRecords

    public func begin(_ round: RoundStart, done: @escaping (Result<Int64, any Error>) -> Void) {
        let started = NewRound(round, at: Date())
        calls.submit("begin_round", deadline: clock() + deadline, { ledger throws(LedgerError) in try ledger.beginRound(started) },
                     abandoned: { [logger] ledger, id in
                         // Nobody runs a round recorded after its deadline: it ends (once the ledger lets it).
                         do throws(LedgerError) {
                             try ledger.endRound(id, status: .interrupted, at: Date(), epoch: 0)
                         } catch where error.code == .io || error.code == .open {
                             return false
                         } catch {}
                         logger.warning("a round recorded after its deadline was ended interrupted", metadata: ["round": "\(id)"])
                         return true
                     },
                     done: { [self] result in
                         if case .success(let id) = result { epochs[id] = 0 }
                         done(result.mapError { $0 })
                     })
    }

    /// A round already ended (by this node's own end that landed after its deadline) counts as ended.
    public func end(_ id: Int64, interrupted: Bool, done: @escaping (Result<Void, any Error>) -> Void) {
        let epoch = epochs[id, default: 0]
        calls.submit("end_round", deadline: clock() + deadline, { ledger throws(LedgerError) in
            do throws(LedgerError) {
                try ledger.endRound(id, status: interrupted ? .interrupted : .finished, at: Date(), epoch: epoch)
            } catch where error.code == .notFound {
                guard try ledger.round(id: id)?.status != nil else { throw error }
            }
        }, done: { [self] result in
            if case .success = result { epochs[id] = nil }
            done(result.mapError { $0 })
        })
    }

    /// Claims each (the fence: the node that ran them can no longer commit to them) before reading
    /// its awards, so the awards read are every award the round will ever have from another node;
    /// `done` gets them, or the error by the deadline. A claim that lands after its deadline is
    /// kept in the ledger (it only fences) but held by nobody: the caller claims again.
    public func running(in room: String, done: @escaping (Result<[RecordedRound], any Error>) -> Void) {
        calls.submit("claim_rounds", deadline: clock() + deadline, { ledger throws(LedgerError) in
            var claimed: [(epoch: Int64, round: RoundRecord)] = []
            for id in try ledger.runningRounds(room: room) {
                let epoch: Int64
                do throws(LedgerError) {
                    epoch = try ledger.claimRound(id)
                } catch where error.code == .notFound {
                    continue  // it ended since it was listed
                }
                if let round = try ledger.round(id: id), round.status == .running { claimed.append((epoch, round)) }
            }
            return claimed
        }, done: { [self] result in
            switch result {
            case .success(let claimed):
                for (epoch, round) in claimed { epochs[round.id] = epoch }
                done(.success(claimed.map { RecordedRound($0.round) }))
            case .failure(let error):
                done(.failure(error))
            }
        })
    }

    // MARK: Reads

    /// Runs `body` on the ledger's thread; `done` gets its value or the error by the deadline.
    func read<T>(_ body: @escaping (any Ledger) throws(LedgerError) -> T, done: @escaping (Result<T, LedgerError>) -> Void) {
        calls.submit("read", deadline: clock() + deadline, body, done: done)
    }

    // MARK: The hub's side

    /// Answers the calls that have finished or passed their deadline (each tick, and when the
    /// ledger's thread wakes the hub); what was answered, for the metrics.
    func deliver() -> [LedgerThread.Outcome] { calls.deliver(now: clock()) }

    /// Seconds between probes of an idle ledger.
    static let probeInterval = 5.0

    /// Makes a cheap read when no call is pending and none was probed for `probeInterval`, so an
    /// idle node's `/healthz` learns that the ledger went away, and that it came back.
    func probeIfIdle() {
        let now = clock()
        guard calls.pending == 0, now - probedAt >= Self.probeInterval else { return }
        probedAt = now
        calls.submit("probe", deadline: now + deadline, { ledger throws(LedgerError) in try ledger.totalCoins(player: "") }) { _ in }
    }

    /// Why the ledger is degraded (`/healthz`), or nil.
    var degradedReason: String? { calls.degradedReason }

    /// Calls not yet answered.
    var pending: Int { calls.pending }

    /// Stops the ledger's thread once the calls already made have run; waits at most `seconds`.
    public func stop(waiting seconds: Double) { calls.stop(waiting: seconds) }

    /// The awarding service of one tap, with its own deadline.
    private final class TapAwarding: Awarding {
        let services: LedgerServices
        let deadline: Double

        init(services: LedgerServices, deadline: Double) {
            self.services = services
            self.deadline = deadline
        }

        func commit(_ award: Award, done: @escaping (Result<Int, any Error>) -> Void) {
            services.commit(award, until: deadline, done: done)
        }
    }
}

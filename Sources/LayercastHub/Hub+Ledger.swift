import Foundation
import LayercastAudit
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastWire

// The ledger's read API: leaderboards, players and rounds (docs/protocol.md, "HTTP"). Each read
// runs on the ledger's thread and is answered through `answer` on the hub's thread, or 503
// `ledger_unavailable` at the ledger's deadline.
extension Hub {
    /// `GET /api/rooms/{room}/leaderboard?limit=N`.
    public func leaderboard(room: String, limit: Int, answer: @escaping (Result<JSONValue, APIError>) -> Void) {
        guard NameRule.isValid(room) else { return answer(.failure(APIError(400, .badRoom, "room must be \(NameRule.description)"))) }
        ledgerRead(answer) { ledger throws(LedgerError) in LedgerDocuments.leaderboard(room: room, try ledger.leaderboard(room: room, limit: limit)) }
    }

    /// `GET /api/players/{id}`.
    public func playerDocument(id: String, answer: @escaping (Result<JSONValue, APIError>) -> Void) {
        guard NameRule.isPlayerID(id) else { return answer(.failure(APIError(400, .badPlayer, "a player id is 1–128 of A–Z a–z 0–9 _ . : -"))) }
        ledgerRead(answer) { ledger throws(LedgerError) in try ledger.player(id: id, recentLimit: 50).map(LedgerDocuments.player) } found: {
            $0.map(Result.success) ?? .failure(APIError(404, .notFound, "no award was ever made to player \(FieldReader.quoted(id))"))
        }
    }

    /// `GET /api/me`: the totals of the player whose credential (anonymous id or token) is the
    /// bearer token; zero totals for a player never awarded.
    public func ownDocument(authorization: String?, answer: @escaping (Result<JSONValue, APIError>) -> Void) {
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            return answer(.failure(APIError(401, .unauthorized, "send your player id or token as Authorization: Bearer <credential>")))
        }
        switch identities.player(credential: String(authorization.dropFirst(7)), now: Date()) {
        case .failure(let error):
            answer(.failure(APIError(401, .unauthorized, "that credential names no player: \(error.message)")))
        case .success(let player):
            ledgerRead(answer) { ledger throws(LedgerError) in
                LedgerDocuments.player(try ledger.player(id: player.id, recentLimit: 50)
                    ?? PlayerSummary(player: player.id, name: player.name, coins: 0, items: 0, recent: []))
            }
        }
    }

    /// The round document (the server's round route, docs/openapi.yaml): a round of any scene
    /// (`LedgerDocuments.round`), its scene's members from the `RoundAuditor` of the registered
    /// scene it names.
    public func roundDocument(id text: String, answer: @escaping (Result<JSONValue, APIError>) -> Void) {
        guard let id = Int64(text), id > 0 else { return answer(.failure(APIError(400, .badRound, LedgerDocuments.badRoundID))) }
        ledgerRead(answer) { ledger throws(LedgerError) in try ledger.round(id: id) } found: { [configuration] round in
            guard let round else { return .failure(APIError(404, .notFound, LedgerDocuments.noRound(id))) }
            return .success(LedgerDocuments.round(round, auditor: configuration.scenes.scene(id: round.scene)?.roundAuditor))
        }
    }

    /// Answers the ledger calls that have finished or passed their deadline, and counts them
    /// (each tick, and whenever the ledger's thread wakes the transport); probes an idle ledger.
    public func deliverLedgerAnswers() {
        metrics.countLedger(ledger.deliver())
        ledger.probeIfIdle()
    }

    /// Runs `read` on the ledger's thread and answers `found` of what it read, or 503 when the
    /// read failed or passed its deadline.
    private func ledgerRead<T>(_ answer: @escaping (Result<JSONValue, APIError>) -> Void,
                               _ read: @escaping (any Ledger) throws(LedgerError) -> T,
                               found: @escaping (T) -> Result<JSONValue, APIError>) {
        ledger.read(read) { [logger] result in
            switch result {
            case .success(let value):
                answer(found(value))
            case .failure(let error):
                logger.error("ledger read failed", metadata: ["error": "\(error)"])
                answer(.failure(APIError(503, .ledgerUnavailable, "the ledger could not be read in time; try again")))
            }
        }
    }

    /// `ledgerRead` of a document.
    private func ledgerRead(_ answer: @escaping (Result<JSONValue, APIError>) -> Void, _ read: @escaping (any Ledger) throws(LedgerError) -> JSONValue) {
        ledgerRead(answer, read) { .success($0) }
    }
}

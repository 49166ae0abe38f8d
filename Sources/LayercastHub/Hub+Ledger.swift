import Foundation
import LayercastAudit
import LayercastJSON
import LayercastLedger
import LayercastScenes
import LayercastWire

// The ledger's read API: leaderboards, players and rounds (docs/protocol.md, "HTTP").
extension Hub {
    /// `GET /api/rooms/{room}/leaderboard?limit=N`.
    public func leaderboard(room: String, limit: Int) -> Result<JSONValue, APIError> {
        guard NameRule.isValid(room) else { return .failure(APIError(400, .badRoom, "room must be \(NameRule.description)")) }
        return ledgerRead {
            LedgerDocuments.leaderboard(room: room, try ledger.leaderboard(room: room, limit: limit))
        }
    }

    /// `GET /api/players/{id}`.
    public func playerDocument(id: String) -> Result<JSONValue, APIError> {
        guard NameRule.isPlayerID(id) else { return .failure(APIError(400, .badPlayer, "a player id is 1–128 of A–Z a–z 0–9 _ . : -")) }
        return ledgerRead {
            guard let summary = try ledger.player(id: id, recentLimit: 50) else {
                throw APIError(404, .notFound, "no award was ever made to player \(FieldReader.quoted(id))")
            }
            return LedgerDocuments.player(summary)
        }
    }

    /// `GET /api/me`: the totals of the player whose credential (anonymous id or token) is the
    /// bearer token; zero totals for a player never awarded.
    public func ownDocument(authorization: String?) -> Result<JSONValue, APIError> {
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            return .failure(APIError(401, .unauthorized, "send your player id or token as Authorization: Bearer <credential>"))
        }
        switch identities.player(credential: String(authorization.dropFirst(7)), now: Date()) {
        case .failure(let error):
            return .failure(APIError(401, .unauthorized, "that credential names no player: \(error.message)"))
        case .success(let player):
            return ledgerRead {
                LedgerDocuments.player(try ledger.player(id: player.id, recentLimit: 50)
                    ?? PlayerSummary(player: player.id, name: player.name, coins: 0, items: 0, recent: []))
            }
        }
    }

    /// `GET /api/rains/{id}`: a round of any scene (`LedgerDocuments.round`), its scene's members
    /// from the `RoundAuditor` of the registered scene it names.
    public func roundDocument(id text: String) -> Result<JSONValue, APIError> {
        guard let id = Int64(text), id > 0 else { return .failure(APIError(400, .badRound, LedgerDocuments.badRoundID)) }
        return ledgerRead {
            guard let round = try ledger.round(id: id) else { throw APIError(404, .notFound, LedgerDocuments.noRound(id)) }
            return LedgerDocuments.round(round, auditor: configuration.scenes.scene(id: round.scene)?.roundAuditor)
        }
    }

    /// Runs a ledger read, turning its failure into 503.
    private func ledgerRead(_ body: () throws -> JSONValue) -> Result<JSONValue, APIError> {
        do {
            return .success(try body())
        } catch let error as APIError {
            return .failure(error)
        } catch {
            logger.error("ledger read failed", metadata: ["error": "\(error)"])
            return .failure(APIError(503, .ledgerUnavailable, "the ledger could not be read"))
        }
    }
}

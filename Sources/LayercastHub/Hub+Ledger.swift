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
            let entries = try ledger.leaderboard(room: room, limit: limit)
            return ["room": .string(room), "players": .array(entries.map { entry in
                ["rank": .number(Double(entry.rank)), "player": .string(entry.player), "name": .string(entry.name),
                 "coins": .number(Double(entry.coins)), "packets": .number(Double(entry.items))]
            })]
        }
    }

    /// `GET /api/players/{id}`.
    public func playerDocument(id: String) -> Result<JSONValue, APIError> {
        guard NameRule.isPlayerID(id) else { return .failure(APIError(400, .badPlayer, "a player id is 1–128 of A–Z a–z 0–9 _ . : -")) }
        return ledgerRead {
            guard let summary = try ledger.player(id: id, recentLimit: 50) else {
                throw APIError(404, .notFound, "no award was ever made to player \(FieldReader.quoted(id))")
            }
            return Self.playerDocument(summary)
        }
    }

    private static func playerDocument(_ summary: PlayerSummary) -> JSONValue {
        ["player": .string(summary.player), "name": .string(summary.name), "coins": .number(Double(summary.coins)),
         "packets": .number(Double(summary.items)), "recent": .array(summary.recent.map(Self.awardDocument))]
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
                Self.playerDocument(try ledger.player(id: player.id, recentLimit: 50)
                    ?? PlayerSummary(player: player.id, name: player.name, coins: 0, items: 0, recent: []))
            }
        }
    }

    /// `GET /api/rains/{id}`: everything of a round (of any scene; a rain's packets are its
    /// items) but, while it runs, its secrets. Its scene's `RoundAuditor` adds the scene's own
    /// members (a rain's settings; once ended, its commitment's text and plan).
    public func roundDocument(id text: String) -> Result<JSONValue, APIError> {
        guard let id = Int64(text), id > 0 else { return .failure(APIError(400, .badRound, "a rain id is a positive integer")) }
        return ledgerRead {
            guard let round = try ledger.round(id: id) else { throw APIError(404, .notFound, "there is no rain \(id)") }
            let recorded = RecordedRound(round)
            let auditor = configuration.scenes.scene(id: round.scene)?.roundAuditor
            var document: JSONObject = [
                "rain": .number(Double(round.id)), "scene": .string(round.scene), "room": .string(round.room),
                "status": .string(round.status.rawValue), "commitment": .string(round.commitment),
            ]
            for (key, value) in auditor?.document(recorded) ?? [:] { document[key] = value }
            document["mediaStart"] = .number(round.mediaStart)
            document["createdAt"] = .string(Self.iso(round.createdAt))
            document["endedAt"] = round.endedAt.map { .string(Self.iso($0)) } ?? .null
            document["awarded"] = .number(Double(round.awards.reduce(0) { $0 + $1.coins }))
            document["awards"] = .array(round.awards.map(Self.awardDocument))
            // While it runs, the seed, the salt and so which items pay are the server's secret.
            if round.status != .running {
                document["seed"] = .number(Double(round.seed))
                document["salt"] = .string(round.salt)
                for (key, value) in auditor?.revealed(recorded) ?? [:] { document[key] = value }
            }
            return .object(document)
        }
    }

    private static func awardDocument(_ award: AwardRow) -> JSONValue {
        ["id": .number(Double(award.id)), "rain": .number(Double(award.round)), "packet": .number(Double(award.item)),
         "player": .string(award.player), "name": .string(award.name), "coins": .number(Double(award.coins)),
         "x": .number(award.x), "y": .number(award.y), "viewTime": .number(award.viewTime), "serverTime": .number(award.serverTime),
         "at": .string(iso(award.createdAt))]
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

    /// A UTC timestamp such as `2026-11-22T10:00:00Z`.
    static func iso(_ date: Date) -> String { date.ISO8601Format() }
}

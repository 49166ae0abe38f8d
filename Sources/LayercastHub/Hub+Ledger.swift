import Foundation
import LayercastAudit
import LayercastJSON
import LayercastLedger
import LayercastScenes
import LayercastWire

// The ledger's read API: leaderboards, players and rains (docs/protocol.md, "HTTP").
extension Hub {
    /// `GET /api/rooms/{room}/leaderboard?limit=N`.
    public func leaderboard(room: String, limit: Int) -> Result<JSONValue, APIError> {
        guard NameRule.isValid(room) else { return .failure(APIError(400, .badRoom, "room must be \(NameRule.description)")) }
        return ledgerRead {
            let entries = try ledger.leaderboard(room: room, limit: limit)
            return ["room": .string(room), "players": .array(entries.map { entry in
                ["rank": .number(Double(entry.rank)), "player": .string(entry.player), "name": .string(entry.name),
                 "coins": .number(Double(entry.coins)), "packets": .number(Double(entry.packets))]
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
         "packets": .number(Double(summary.packets)), "recent": .array(summary.recent.map(Self.awardDocument))]
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
                    ?? PlayerSummary(player: player.id, name: player.name, coins: 0, packets: 0, recent: []))
            }
        }
    }

    /// `GET /api/rains/{id}`: everything of a rain but, while it runs, its secrets.
    public func rainDocument(id text: String) -> Result<JSONValue, APIError> {
        guard let id = Int64(text), id > 0 else { return .failure(APIError(400, .badRain, "a rain id is a positive integer")) }
        return ledgerRead {
            guard let rain = try ledger.rain(id: id) else { throw APIError(404, .notFound, "there is no rain \(id)") }
            let row = rain.settings
            var document: JSONObject = [
                "rain": .number(Double(rain.id)), "room": .string(rain.room), "status": .string(rain.status.rawValue),
                "commitment": .string(rain.commitment),
                "settings": ["duration": .number(row.duration), "pool": .number(Double(row.pool)),
                             "winners": .number(Double(row.winners)), "minCoins": .number(Double(row.minCoins)),
                             "maxCoins": .number(Double(row.maxCoins)), "width": .number(row.width), "height": .number(row.height),
                             "maxAwardsPerPlayer": .number(Double(row.maxAwardsPerPlayer)),
                             "maxCoinsPerPlayer": .number(Double(row.maxCoinsPerPlayer)),
                             "minVisible": .number(row.minVisible), "tapRate": .number(row.tapRate)],
                "players": .number(Double(row.players)),
                "mediaStart": .number(rain.mediaStart), "createdAt": .string(Self.iso(rain.createdAt)),
                "endedAt": rain.endedAt.map { .string(Self.iso($0)) } ?? .null,
                "awarded": .number(Double(rain.awards.reduce(0) { $0 + $1.coins })),
                "awards": .array(rain.awards.map(Self.awardDocument)),
            ]
            // While it runs, the seed, the salt and so which packets pay are the server's secret.
            if rain.status != .running {
                document["seed"] = .number(Double(rain.seed))
                document["salt"] = .string(rain.salt)
                if let settings = RainSettings(rain), !rain.commitment.isEmpty {
                    document["commitmentText"] = .string(RainCommitment(settings: settings, size: row.size).text)
                }
                document["plan"] = .array(rain.prizes.sorted { $0.key < $1.key }.map { ["packet": .number(Double($0.key)), "coins": .number(Double($0.value))] })
            }
            return .object(document)
        }
    }

    private static func awardDocument(_ award: AwardRow) -> JSONValue {
        ["id": .number(Double(award.id)), "rain": .number(Double(award.rain)), "packet": .number(Double(award.packet)),
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

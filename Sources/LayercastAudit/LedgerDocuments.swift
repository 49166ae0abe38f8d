import Foundation
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI

/// The ledger's read documents (docs/protocol.md, "HTTP"): a room's leaderboard, a player's
/// totals and a round's record. Their members keep the names they had when the rain was the only
/// scene that paid out (a round's id is `rain`, an item `packet`), which clients read; a round's
/// own members come from its scene's `RoundAuditor`.
public enum LedgerDocuments {
    /// The message for a round id that is not a positive integer.
    public static let badRoundID = "a rain id is a positive integer"

    /// The message for round `id`, which the ledger does not have.
    public static func noRound(_ id: Int64) -> String { "there is no rain \(id)" }

    /// `GET /api/rooms/{room}/leaderboard`.
    public static func leaderboard(room: String, _ entries: [LeaderboardEntry]) -> JSONValue {
        ["room": .string(room), "players": .array(entries.map { entry in
            ["rank": .number(Double(entry.rank)), "player": .string(entry.player), "name": .string(entry.name),
             "coins": .number(Double(entry.coins)), "packets": .number(Double(entry.items))]
        })]
    }

    /// `GET /api/players/{id}` and `GET /api/me`.
    public static func player(_ summary: PlayerSummary) -> JSONValue {
        ["player": .string(summary.player), "name": .string(summary.name), "coins": .number(Double(summary.coins)),
         "packets": .number(Double(summary.items)), "recent": .array(summary.recent.map(award))]
    }

    /// `GET /api/rains/{id}`: everything of `round` but, while it runs, its secrets (seed, salt,
    /// and so which items pay); `auditor`, its scene's, adds the scene's members (a rain's
    /// settings; once ended, its commitment's text and plan), none when nil.
    public static func round(_ round: RoundRecord, auditor: (any RoundAuditor.Type)?) -> JSONValue {
        let recorded = RecordedRound(round)
        var document: JSONObject = [
            "rain": .number(Double(round.id)), "scene": .string(round.scene), "room": .string(round.room),
            "status": .string(round.status.rawValue), "commitment": .string(round.commitment),
        ]
        for (key, value) in auditor?.document(recorded) ?? [:] { document[key] = value }
        document["mediaStart"] = .number(round.mediaStart)
        document["createdAt"] = .string(iso(round.createdAt))
        document["endedAt"] = round.endedAt.map { .string(iso($0)) } ?? .null
        document["awarded"] = .number(Double(round.awards.reduce(0) { $0 + $1.coins }))
        document["awards"] = .array(round.awards.map(award))
        if round.status != .running {
            document["seed"] = .number(Double(round.seed))
            document["salt"] = .string(round.salt)
            for (key, value) in auditor?.revealed(recorded) ?? [:] { document[key] = value }
        }
        return .object(document)
    }

    /// One award, in a round's, a player's or the `award` event's words.
    public static func award(_ award: AwardRow) -> JSONValue {
        ["id": .number(Double(award.id)), "rain": .number(Double(award.round)), "packet": .number(Double(award.item)),
         "player": .string(award.player), "name": .string(award.name), "coins": .number(Double(award.coins)),
         "x": .number(award.x), "y": .number(award.y), "viewTime": .number(award.viewTime), "serverTime": .number(award.serverTime),
         "at": .string(iso(award.createdAt))]
    }

    /// A UTC timestamp such as `2026-11-22T10:00:00Z`.
    static func iso(_ date: Date) -> String { date.ISO8601Format() }
}

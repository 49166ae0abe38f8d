import Layercast

/// The audit of the coverage scene's recorded rounds: a round pays its one item, the coin, at most
/// once, the coins its settings say.
public enum CoverageAudit: RoundAuditor {
    /// Where the round's record disagrees with what the scene pays: an unreadable setting, a prize
    /// plan other than the coin's, an award of another item or amount, or more than one award.
    public static func differences(_ round: RecordedRound) -> [String] {
        guard let coins = coins(round) else { return ["settings: not {\"coins\": n}: \(round.settings)"] }
        var lines: [String] = []
        if round.prizes != [1: coins] { lines.append("prizes: \(round.prizes), expected [1: \(coins)]") }
        for award in round.awards where award.item != 1 || award.coins != coins {
            lines.append("award \(award.id): item \(award.item) of \(award.coins) coins, expected item 1 of \(coins)")
        }
        if round.awards.count > 1 { lines.append("\(round.awards.count) awards, at most 1") }
        return lines
    }

    /// The coin's coins; 0 when the settings cannot be read.
    public static func pool(_ round: RecordedRound) -> Int { coins(round) ?? 0 }

    /// The round's settings: what the coin pays.
    public static func document(_ round: RecordedRound) -> JSONObject {
        coins(round).map { ["coins": .number(Double($0))] } ?? [:]
    }

    /// Once ended: the seed the round ran with (it has no secret).
    public static func revealed(_ round: RecordedRound) -> JSONObject {
        ["seed": .string(String(round.seed))]
    }

    /// `coins` of the round's settings, `{"coins": n}`.
    private static func coins(_ round: RecordedRound) -> Int? {
        guard case .object(let settings)? = try? JSONValue.parse(round.settings),
              case .number(let coins)? = settings["coins"], coins == coins.rounded(), coins >= 1 else { return nil }
        return Int(coins)
    }
}

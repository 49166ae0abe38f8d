import LayercastSceneAPI

/// The ledger's stand-in in a `SceneHarness`: it commits every award a scene claims, keeping each
/// player's running total, so a paying scene is tested without a database. Set `refuses` to see
/// what the scene does when a commit fails (nothing is awarded and nothing announced).
public final class HarnessLedger: ImmediateAwarding {
    /// Every award committed, oldest first.
    public private(set) var awards: [Award] = []
    /// Each player's total coins: the committed awards added to the player's opening balance
    /// (0 unless a test sets `totals[player]` first).
    public var totals: [String: Int] = [:]
    /// When true, every commit fails with `Refused` and changes nothing.
    public var refuses = false

    /// An empty ledger that commits.
    public init() {}

    /// Records `award` and returns its player's new total; throws `Refused` when `refuses` is set.
    public func commit(_ award: Award) throws -> Int {
        guard !refuses else { throw Refused() }
        awards.append(award)
        totals[award.player, default: 0] += award.claim.coins
        return totals[award.player]!
    }

    /// The error of a commit while `refuses` is set.
    public struct Refused: Error, CustomStringConvertible {
        public var description: String { "the harness ledger refuses commits" }
    }
}

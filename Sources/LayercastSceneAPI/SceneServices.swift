import Logging

/// What a room lends its scene's controller: where claims are committed, where paying rounds are
/// recorded, and the log. The ledger and the server's logger in production; fakes in tests.
public struct SceneServices {
    /// Where the controller commits claims: the ledger in production.
    public var awarding: any Awarding
    /// Where the controller records paying rounds (a rain's start and end).
    public var rounds: any RoundRecords
    /// The server's log.
    public var logger: Logger

    /// Services lent to a controller.
    public init(awarding: any Awarding, rounds: any RoundRecords, logger: Logger) {
        self.awarding = awarding
        self.rounds = rounds
        self.logger = logger
    }
}

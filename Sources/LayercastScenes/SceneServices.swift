import Logging

/// What a room lends its scene's controller: where claims are committed, where paying rounds are
/// recorded, and the log. The ledger and the server's logger in production; fakes in tests.
public struct SceneServices {
    public var awarding: any Awarding
    public var rounds: any RoundRecords
    public var logger: Logger

    public init(awarding: any Awarding, rounds: any RoundRecords, logger: Logger) {
        self.awarding = awarding
        self.rounds = rounds
        self.logger = logger
    }
}

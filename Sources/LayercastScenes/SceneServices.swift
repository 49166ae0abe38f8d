import Logging

/// What a room lends its scene's controller: where claims are committed, where rains are recorded,
/// and the log. The ledger and the server's logger in production; fakes in tests.
public struct SceneServices {
    public var awarding: any Awarding
    public var rains: any RainRecords
    public var logger: Logger

    public init(awarding: any Awarding, rains: any RainRecords, logger: Logger) {
        self.awarding = awarding
        self.rains = rains
        self.logger = logger
    }
}

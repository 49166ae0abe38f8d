import LayercastJSON

/// What a scene that records paying rounds (`RoundRecords`) offers for them once played: the
/// audit's replay (`layercast replay`) and its part of a round's document (`GET /api/rains/{id}`).
/// A scene names its auditor in `Scene.roundAuditor`.
public protocol RoundAuditor {
    /// Every way a replay of the ended round `round` disagrees with its record (its commitment,
    /// prize plan and each award), one line each; empty when it agrees.
    static func differences(_ round: RecordedRound) -> [String]
    /// The most coins `round` could pay out (its pool); 0 when its settings cannot be read.
    static func pool(_ round: RecordedRound) -> Int
    /// The scene's members of `round`'s document at any time, such as its settings; empty when
    /// they cannot be read.
    static func document(_ round: RecordedRound) -> JSONObject
    /// The scene's members of an ended `round`'s document, once its secrets are out: what lets
    /// anyone check its commitment and plan.
    static func revealed(_ round: RecordedRound) -> JSONObject
}

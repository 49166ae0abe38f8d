/// Where a round is in its life: `running` until it is ended as `finished` (played to the end)
/// or `interrupted` (stopped early, or found running after a crash).
public enum RoundStatus: String, Sendable {
    case running, finished, interrupted
}

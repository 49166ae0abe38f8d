/// Where a rain is in its life: `running` until it is ended as `finished` (played to the end) or
/// `interrupted` (stopped early, or found running after a crash).
public enum RainStatus: String, Sendable {
    case running, finished, interrupted
}

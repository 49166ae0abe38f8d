/// The phase of a drag, as the client reports it.
public enum DragPhase: String, Sendable, CaseIterable {
    /// The pointer went down, moved while down, came up, or the drag was given up (the browser took the pointer away).
    case began, moved, ended, cancelled
}

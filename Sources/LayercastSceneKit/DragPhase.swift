/// The phase of a drag, as the client reports it.
public enum DragPhase: String, Sendable, CaseIterable {
    case began, moved, ended, cancelled
}

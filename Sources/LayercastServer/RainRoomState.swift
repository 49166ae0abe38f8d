/// What the server keeps beside a rain room's scene: the ledger rain it is running and how long
/// the room has been idle, for the schedule.
final class RainRoomState {
    /// The ledger id of the rain in progress, until the ledger has recorded its end.
    var running: Int64?
    /// The monotonic time the room was last seen running a rain (or was created).
    var idleSince: Double
    /// Whether the scene was idle at the last tick (so the tick that finds it idle again tells
    /// the room when the next rain is due).
    var wasIdle = true

    init(now: Double) { idleSince = now }
}

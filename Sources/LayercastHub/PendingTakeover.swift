/// A takeover of a room (`Hub.place`) whose controller has not yet taken up what its scene
/// persisted: its claims are with the ledger, or failed and are asked again after a backoff.
struct PendingTakeover {
    /// Numbers the attempts: an answer to an earlier one is stale.
    private(set) var attempt = 1
    /// Whether an attempt's answer is awaited; else the next attempt is due at `retryAt`.
    private(set) var asking = true
    private(set) var retryAt = Double.infinity
    /// Whether the room waits for the first attempt's answer: it makes no frame of its own (its
    /// clients keep the last frame relayed), input is refused `not_ready` and commands wait.
    private(set) var waiting = true
    /// Whether the room was being placed (it has no frames of its own yet) when it was taken over.
    let placing: Bool

    /// Seconds before the second attempt, doubling after each failure up to `longestRetry`.
    static let firstRetry = 1.0
    static let longestRetry = 8.0

    init(placing: Bool) { self.placing = placing }

    /// The attempt that failed at `now`: the room runs without what it would take up, and the
    /// next attempt is due after the backoff.
    mutating func failed(at now: Double) {
        retryAt = now + min(Self.longestRetry, Self.firstRetry * Double(1 << min(attempt - 1, 8)))
        asking = false
        waiting = false
    }

    /// Whether the next attempt is due at `now`.
    func isDue(at now: Double) -> Bool { !asking && now >= retryAt }

    /// The next attempt begins.
    mutating func ask() {
        attempt += 1
        asking = true
    }
}

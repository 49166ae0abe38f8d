import Foundation

/// Where a scene's paying rounds are recorded before they start and when they end (the ledger in
/// production, on its own thread). A round is one run of a scene in which players claim its
/// numbered items for coins (a rain and its packets); its awards are committed through
/// `Awarding`, keyed by round and item. Called on the room's thread, outside any scene context;
/// `done` is called there too, at once or later (never while the caller still runs, with the
/// ledger on its thread), with the error when the ledger failed or did not answer in time.
public protocol RoundRecords: AnyObject {
    /// Records a round about to start (status running) with its prize plan; `done` gets its id.
    func begin(_ round: RoundStart, done: @escaping (Result<Int64, any Error>) -> Void)
    /// Records that round `id` finished, or was interrupted (`interrupted`).
    func end(_ id: Int64, interrupted: Bool, done: @escaping (Result<Void, any Error>) -> Void)
    /// The rounds of room `room` still recorded as running, of any scene, oldest first, with their
    /// awards. Each is claimed for the caller first: whoever recorded it before can no longer
    /// record its awards or its end, and the awards read are all it has. On failure (at the
    /// ledger's deadline) the caller holds no claim and may ask again.
    func running(in room: String, done: @escaping (Result<[RecordedRound], any Error>) -> Void)
}

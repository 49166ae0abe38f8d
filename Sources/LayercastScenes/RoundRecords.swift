import Foundation

/// Where a scene's paying rounds are recorded before they start and when they end (the ledger in
/// production). A round is one run of a scene in which players claim its numbered items for coins
/// (a rain and its packets); its awards are committed through `Awarding`, keyed by round and item.
/// Called on the room's thread, outside any scene context.
public protocol RoundRecords: AnyObject {
    /// Records a round about to start (status running) with its prize plan; returns its id.
    func begin(_ round: RoundStart) throws -> Int64
    /// Records that round `id` finished, or was interrupted (`interrupted`).
    func end(_ id: Int64, interrupted: Bool) throws
    /// The rounds of room `room` still recorded as running, of any scene, oldest first, with their
    /// awards. Each is claimed for the caller first: whoever recorded it before can no longer
    /// record its awards or its end, and the awards read are all it has.
    func running(in room: String) throws -> [RecordedRound]
}

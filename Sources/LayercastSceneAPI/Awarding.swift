import Foundation
import LayercastEngine

/// A claim with the player it goes to and the room's media time when the tap arrived: what an
/// `Awarding` commits.
public struct Award: Equatable, Sendable {
    /// What was won: the round, the item, its coins, where and at what view time.
    public var claim: Claim
    /// The id of the player it goes to.
    public var player: String
    /// The player's display name, as recorded with the award.
    public var name: String
    /// The room's media time when the tap arrived.
    public var serverTime: CFTimeInterval

    /// An award of `claim` to `player` (shown as `name`), tapped at `serverTime`.
    public init(claim: Claim, player: String, name: String, serverTime: CFTimeInterval) {
        self.claim = claim
        self.player = player
        self.name = name
        self.serverTime = serverTime
    }
}

/// Where a room commits claims before anyone hears of them: the ledger in production (on its own
/// thread, answering later), a recorder in `layercast replay`, a fake in tests. Called on the
/// room's thread, outside any scene context.
public protocol Awarding: AnyObject {
    /// Commits `award` durably and calls `done` on the room's thread, at once or later, with the
    /// player's total coins after it, or with the error, and then nothing was awarded. Until `done`
    /// is called the room's scene is held (`SceneStage.isCommitting`).
    func commit(_ award: Award, done: @escaping (Result<Int, any Error>) -> Void)
}

/// An awarding service that answers at once (replay, tests, a scene package's fakes): implement
/// the throwing `commit`, and `SceneStage.tap(at:viewTime:now:by:awarding:)` returns the result.
public protocol ImmediateAwarding: Awarding {
    /// Commits `award` durably and returns the player's total coins after it; throws when it
    /// could not, and then nothing was awarded.
    func commit(_ award: Award) throws -> Int
}

extension ImmediateAwarding {
    public func commit(_ award: Award, done: @escaping (Result<Int, any Error>) -> Void) {
        done(Result { try commit(award) })
    }
}

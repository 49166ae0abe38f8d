/// What everyone may see of a player: a public id and a display name. The credential the player
/// joined with (an anonymous id or a token's `sub`) stays between the player and the server.
public struct PublicPlayer: Equatable, Sendable {
    /// `p-` and 16 lowercase hex digits (`PlayerPseudonyms`), or a token's raw `sub` when the
    /// operator chose to show those.
    public let id: String
    public let name: String
    public let isAnonymous: Bool

    public init(id: String, name: String, isAnonymous: Bool) {
        self.id = id
        self.name = name
        self.isAnonymous = isAnonymous
    }
}

extension Configuration {
    /// Who may play and how players are shown: the players' part of the configuration.
    struct Players: Sendable {
        /// Secret that player tokens are signed with (HMAC-SHA256); nil accepts no tokens.
        var tokenSecret: String?
        /// Whether players may join with an anonymous id; nil: only when no `tokenSecret` is set.
        var allowAnonymous: Bool?
        /// The key of public player ids (`PlayerPseudonyms`); nil: the one kept with the ledger
        /// (`PlayerIDKey`), made on first start.
        var idSecret: String?
        /// Whether token players are shown by their raw `sub` rather than a public id.
        var showTokenSubjects = false

        /// Whether anonymous players are let in.
        var anonymousAllowed: Bool { allowAnonymous ?? (tokenSecret == nil) }
    }
}

/// What a client joined as (`role=` of the join): a player, whose input counts, or a spectator.
public enum ClientRole: String, CaseIterable, Sendable {
    case player, spectator
}

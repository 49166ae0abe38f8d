/// The `code` of an `error` message (protocol.md, "error").
public enum ProtocolErrorCode: String, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case unknownType = "unknown_type"
    case badField = "bad_field"
    case tooLarge = "too_large"
    case binary
    case rateLimited = "rate_limited"
    case forbidden
    case unknownScene = "unknown_scene"
    case badRoom = "bad_room"
    case badRole = "bad_role"
    case serverFull = "server_full"
    case badToken = "bad_token"
    case tokenRequired = "token_required"
    case badPlayer = "bad_player"
    /// The award ledger could not record a claim; nothing was awarded.
    case ledgerUnavailable = "ledger_unavailable"
    /// One client address is over a per-address limit (connections, anonymous joins or taps).
    case hostLimit = "host_limit"
    /// In a cluster: the room's origin is not known yet (it opened a moment ago), so the input
    /// could not be forwarded; nothing happened.
    case notReady = "not_ready"
}

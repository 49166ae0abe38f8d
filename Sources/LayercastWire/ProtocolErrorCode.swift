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
}

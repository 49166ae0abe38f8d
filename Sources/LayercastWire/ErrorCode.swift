/// A refusal's stable code, each spelled once for both ways in: the `code` of a WebSocket `error`
/// message and its close reason (protocol.md, "error"; `ProtocolError`), and the `error` of an
/// HTTP API answer (`APIError`; openapi.yaml). Some serve both (`bad_room`, `not_ready`,
/// `ledger_unavailable`…): `webSocket` and `api` list which each uses.
public enum ErrorCode: String, Sendable, CaseIterable {
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
    /// The award ledger could not record a claim, or the API could not read it; nothing was awarded.
    case ledgerUnavailable = "ledger_unavailable"
    /// One client address is over a per-address limit (connections, anonymous joins or taps).
    case hostLimit = "host_limit"
    /// In a cluster: the room's origin is not known yet (it opened a moment ago), so the input or
    /// the command could not be forwarded; nothing happened.
    case notReady = "not_ready"
    /// No such route, command, rain or player.
    case notFound = "not_found"
    /// An admin request without the admin token (`Authorization: Bearer`), or with another.
    case unauthorized
    /// An admin request to a server started without `--admin-token`.
    case adminDisabled = "admin_disabled"
    /// A `POST` body sent without a `Content-Length`.
    case lengthRequired = "length_required"
    /// A rain id that is not one.
    case badRain = "bad_rain"
    /// A rain is already falling in the room.
    case rainRunning = "rain_running"
    /// No rain is falling in the room.
    case noRain = "no_rain"
    /// In a cluster: the room's origin did not answer a forwarded command in time.
    case originTimeout = "origin_timeout"
    /// The server failed; the message says what.
    case `internal`

    /// The codes a WebSocket `error` message carries, in protocol.md's order (and the `reason`s
    /// of `layercast_messages_rejected_total`).
    public static let webSocket: [ErrorCode] = [
        .badJSON, .unknownType, .badField, .tooLarge, .binary, .rateLimited, .forbidden, .unknownScene, .badRoom, .badRole,
        .serverFull, .badToken, .tokenRequired, .badPlayer, .ledgerUnavailable, .hostLimit, .notReady,
    ]

    /// The codes an HTTP API answer's `error` carries (openapi.yaml).
    public static let api: [ErrorCode] = [
        .badJSON, .badField, .tooLarge, .badRoom, .badPlayer, .ledgerUnavailable, .notReady, .notFound, .unauthorized,
        .adminDisabled, .lengthRequired, .badRain, .rainRunning, .noRain, .originTimeout, .internal,
    ]
}

/// A refusal's stable code, each spelled once for both ways in: the `code` of a WebSocket `error`
/// message and its close reason (protocol.md, "error"; `ProtocolError`), and the `error` of an
/// HTTP API answer (`APIError`; openapi.yaml), and of a request refused before any route sees it
/// (`RequestRefusal`). Some serve both ways (`bad_room`, `not_ready`, `ledger_unavailable`…):
/// `webSocket`, `api` and `request` list which each uses.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// A message or body that is not JSON, or not an object.
    case badJSON = "bad_json"
    /// A message whose `type` the protocol does not have.
    case unknownType = "unknown_type"
    /// A field missing, of the wrong kind or out of range; the message names its path.
    case badField = "bad_field"
    /// A message over 4096 bytes, or a body over its limit.
    case tooLarge = "too_large"
    /// A binary WebSocket message: the protocol is text only.
    case binary
    /// More taps or drags a second than a player or connection may make.
    case rateLimited = "rate_limited"
    /// A spectator sent a `tap` or `drag`.
    case forbidden
    /// A scene id the server does not register.
    case unknownScene = "unknown_scene"
    /// A room name that breaks the naming rule.
    case badRoom = "bad_room"
    /// A `role` other than `player` and `spectator`.
    case badRole = "bad_role"
    /// The server is at `--max-clients`, or the join would open a room beyond `--max-rooms`; try again later.
    case serverFull = "server_full"
    /// A player token that does not verify, or has expired.
    case badToken = "bad_token"
    /// A player join without a token on a server that requires one.
    case tokenRequired = "token_required"
    /// A player id or name that breaks its rule.
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
    /// A round (rain) id that is not one (`GET /api/rains/{id}`); its wire name is the rain's.
    case badRound = "bad_rain"
    /// A rain is already falling in the room.
    case rainRunning = "rain_running"
    /// No rain is falling in the room.
    case noRain = "no_rain"
    /// In a cluster: the room's origin did not answer a forwarded command in time.
    case originTimeout = "origin_timeout"
    /// The server failed; the message says what.
    case `internal`

    // A request refused before any route sees it (`layercast_http_refused_total`, docs/protocol.md "HTTP").
    /// A method other than GET and POST (405).
    case badMethod = "bad_method"
    /// A request line that is not `METHOD SP TARGET SP HTTP/1.1`, or a bare CR or NUL in the head.
    case badRequestLine = "bad_request_line"
    /// A header line without a colon, with white space before it, or folded onto the line before.
    case badHeader = "bad_header"
    /// Two `Content-Length` headers.
    case duplicateContentLength = "duplicate_content_length"
    /// A `Content-Length` that is not a decimal number of bytes.
    case badContentLength = "bad_content_length"
    /// Both `Content-Length` and `Transfer-Encoding`: a request smuggling risk.
    case contentLengthAndTransferEncoding = "content_length_and_transfer_encoding"
    /// Two `Host` headers.
    case duplicateHost = "duplicate_host"
    /// A path or query holding control characters, encoded or not.
    case badTarget = "bad_target"
    /// A WebSocket handshake that does not ask for `layercast.v1`.
    case subprotocol
    /// A request head not whole within `--head-timeout` (408).
    case headTimeout = "head_timeout"
    /// A request head over the server's limit (431).
    case headTooLarge = "head_too_large"
    /// A POST body not whole within `--body-timeout` (408).
    case bodyTimeout = "body_timeout"

    /// The codes a WebSocket `error` message carries, in protocol.md's order (and the `reason`s
    /// of `layercast_messages_rejected_total`).
    public static let webSocket: [ErrorCode] = [
        .badJSON, .unknownType, .badField, .tooLarge, .binary, .rateLimited, .forbidden, .unknownScene, .badRoom, .badRole,
        .serverFull, .badToken, .tokenRequired, .badPlayer, .ledgerUnavailable, .hostLimit, .notReady,
    ]

    /// The codes an HTTP API answer's `error` carries (openapi.yaml).
    public static let api: [ErrorCode] = [
        .badJSON, .badField, .tooLarge, .badRoom, .badPlayer, .ledgerUnavailable, .notReady, .notFound, .unauthorized,
        .adminDisabled, .lengthRequired, .badRound, .rainRunning, .noRain, .originTimeout, .internal,
    ]

    /// The codes of a request refused before any route sees it: the `error` of its answer and the
    /// `reason` of `layercast_http_refused_total` (which also counts `peer_gone`, never answered).
    public static let request: [ErrorCode] = [
        .badMethod, .badRequestLine, .badHeader, .duplicateContentLength, .badContentLength, .contentLengthAndTransferEncoding,
        .duplicateHost, .badTarget, .subprotocol, .headTimeout, .headTooLarge, .bodyTimeout,
    ]
}

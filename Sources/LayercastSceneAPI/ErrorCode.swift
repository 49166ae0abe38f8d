/// A refusal's stable code, each spelled once for both ways in: the `code` of a WebSocket `error`
/// message and its close reason (protocol.md, "error"; `ProtocolError`), and the `error` of an
/// HTTP API answer (`APIError`; openapi.yaml), and of a request refused before any route sees it
/// (`RequestRefusal`). Some serve both ways (`bad_room`, `not_ready`, `ledger_unavailable`…):
/// `webSocket`, `api` and `request` list which each uses. A scene declares the codes of its own
/// commands' refusals beside it, as static members of an extension (the rain's `rain_running`).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as the wire spells it (`bad_field`).
    public let rawValue: String

    /// The code as the wire spells it, as logs show it.
    public var description: String { rawValue }

    /// The code spelled `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A message or body that is not JSON, or not an object.
    public static let badJSON = ErrorCode(rawValue: "bad_json")
    /// A message whose `type` the protocol does not have.
    public static let unknownType = ErrorCode(rawValue: "unknown_type")
    /// A field missing, of the wrong kind or out of range; the message names its path.
    public static let badField = ErrorCode(rawValue: "bad_field")
    /// A message over 4096 bytes, or a body over its limit.
    public static let tooLarge = ErrorCode(rawValue: "too_large")
    /// A binary WebSocket message: the protocol is text only.
    public static let binary = ErrorCode(rawValue: "binary")
    /// More taps or drags a second than a player or connection may make.
    public static let rateLimited = ErrorCode(rawValue: "rate_limited")
    /// A spectator sent a `tap` or `drag`.
    public static let forbidden = ErrorCode(rawValue: "forbidden")
    /// A scene id the server does not register.
    public static let unknownScene = ErrorCode(rawValue: "unknown_scene")
    /// A room name that breaks the naming rule.
    public static let badRoom = ErrorCode(rawValue: "bad_room")
    /// A `role` other than `player` and `spectator`.
    public static let badRole = ErrorCode(rawValue: "bad_role")
    /// The server is at `--max-clients`, or the join would open a room beyond `--max-rooms`; try again later.
    public static let serverFull = ErrorCode(rawValue: "server_full")
    /// A player token that does not verify, or has expired.
    public static let badToken = ErrorCode(rawValue: "bad_token")
    /// A player join without a token on a server that requires one.
    public static let tokenRequired = ErrorCode(rawValue: "token_required")
    /// A player id or name that breaks its rule.
    public static let badPlayer = ErrorCode(rawValue: "bad_player")
    /// The award ledger could not record a claim, or the API could not read it; nothing was awarded.
    public static let ledgerUnavailable = ErrorCode(rawValue: "ledger_unavailable")
    /// One client address is over a per-address limit (connections, anonymous joins or taps).
    public static let hostLimit = ErrorCode(rawValue: "host_limit")
    /// In a cluster: the room's origin is not known yet (it opened a moment ago), so the input or
    /// the command could not be forwarded; nothing happened.
    public static let notReady = ErrorCode(rawValue: "not_ready")
    /// No such route, command, rain or player.
    public static let notFound = ErrorCode(rawValue: "not_found")
    /// An admin request without the admin token (`Authorization: Bearer`), or with another.
    public static let unauthorized = ErrorCode(rawValue: "unauthorized")
    /// An admin request to a server started without `--admin-token`.
    public static let adminDisabled = ErrorCode(rawValue: "admin_disabled")
    /// A `POST` body sent without a `Content-Length`.
    public static let lengthRequired = ErrorCode(rawValue: "length_required")
    /// A round (rain) id that is not one (`GET /api/rains/{id}`); its wire name is the rain's.
    public static let badRound = ErrorCode(rawValue: "bad_rain")
    /// In a cluster: the room's origin did not answer a forwarded command in time.
    public static let originTimeout = ErrorCode(rawValue: "origin_timeout")
    /// The server failed; the message says what.
    public static let `internal` = ErrorCode(rawValue: "internal")

    // A request refused before any route sees it (`layercast_http_refused_total`, docs/protocol.md "HTTP").
    /// A method other than GET and POST (405).
    public static let badMethod = ErrorCode(rawValue: "bad_method")
    /// A request line that is not `METHOD SP TARGET SP HTTP/1.1`, or a bare CR or NUL in the head.
    public static let badRequestLine = ErrorCode(rawValue: "bad_request_line")
    /// A header line without a colon, with white space before it, or folded onto the line before.
    public static let badHeader = ErrorCode(rawValue: "bad_header")
    /// Two `Content-Length` headers.
    public static let duplicateContentLength = ErrorCode(rawValue: "duplicate_content_length")
    /// A `Content-Length` that is not a decimal number of bytes.
    public static let badContentLength = ErrorCode(rawValue: "bad_content_length")
    /// Both `Content-Length` and `Transfer-Encoding`: a request smuggling risk.
    public static let contentLengthAndTransferEncoding = ErrorCode(rawValue: "content_length_and_transfer_encoding")
    /// Two `Host` headers.
    public static let duplicateHost = ErrorCode(rawValue: "duplicate_host")
    /// A path or query holding control characters, encoded or not.
    public static let badTarget = ErrorCode(rawValue: "bad_target")
    /// A WebSocket handshake that does not ask for `layercast.v1`.
    public static let subprotocol = ErrorCode(rawValue: "subprotocol")
    /// A request head not whole within `--head-timeout` (408).
    public static let headTimeout = ErrorCode(rawValue: "head_timeout")
    /// A request head over the server's limit (431).
    public static let headTooLarge = ErrorCode(rawValue: "head_too_large")
    /// A POST body not whole within `--body-timeout` (408).
    public static let bodyTimeout = ErrorCode(rawValue: "body_timeout")

    /// The codes a WebSocket `error` message carries, in protocol.md's order (and the `reason`s
    /// of `layercast_messages_rejected_total`).
    public static let webSocket: [ErrorCode] = [
        .badJSON, .unknownType, .badField, .tooLarge, .binary, .rateLimited, .forbidden, .unknownScene, .badRoom, .badRole,
        .serverFull, .badToken, .tokenRequired, .badPlayer, .ledgerUnavailable, .hostLimit, .notReady,
    ]

    /// The codes an HTTP API answer's `error` carries (openapi.yaml), besides the scenes' own.
    public static let api: [ErrorCode] = [
        .badJSON, .badField, .tooLarge, .badRoom, .badPlayer, .ledgerUnavailable, .notReady, .notFound, .unauthorized,
        .adminDisabled, .lengthRequired, .badRound, .originTimeout, .internal,
    ]

    /// The codes of a request refused before any route sees it: the `error` of its answer and the
    /// `reason` of `layercast_http_refused_total` (which also counts `peer_gone`, never answered).
    public static let request: [ErrorCode] = [
        .badMethod, .badRequestLine, .badHeader, .duplicateContentLength, .badContentLength, .contentLengthAndTransferEncoding,
        .duplicateHost, .badTarget, .subprotocol, .headTimeout, .headTooLarge, .bodyTimeout,
    ]
}

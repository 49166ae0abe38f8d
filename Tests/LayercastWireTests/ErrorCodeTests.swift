import LayercastSceneAPI
import Testing

/// Every refusal code's wire string, pinned: the codes are a contract (protocol.md, openapi.yaml).
@Suite struct ErrorCodeTests {
    @Test func everyCodeKeepsItsWireString() {
        let pinned: [(ErrorCode, String)] = [
            (.badJSON, "bad_json"),
            (.unknownType, "unknown_type"),
            (.badField, "bad_field"),
            (.tooLarge, "too_large"),
            (.binary, "binary"),
            (.rateLimited, "rate_limited"),
            (.forbidden, "forbidden"),
            (.unknownScene, "unknown_scene"),
            (.badRoom, "bad_room"),
            (.badRole, "bad_role"),
            (.serverFull, "server_full"),
            (.badToken, "bad_token"),
            (.tokenRequired, "token_required"),
            (.badPlayer, "bad_player"),
            (.ledgerUnavailable, "ledger_unavailable"),
            (.hostLimit, "host_limit"),
            (.notReady, "not_ready"),
            (.notFound, "not_found"),
            (.unauthorized, "unauthorized"),
            (.adminDisabled, "admin_disabled"),
            (.lengthRequired, "length_required"),
            (.badRound, "bad_rain"),
            (.originTimeout, "origin_timeout"),
            (.`internal`, "internal"),
            (.badMethod, "bad_method"),
            (.badRequestLine, "bad_request_line"),
            (.badHeader, "bad_header"),
            (.duplicateContentLength, "duplicate_content_length"),
            (.badContentLength, "bad_content_length"),
            (.contentLengthAndTransferEncoding, "content_length_and_transfer_encoding"),
            (.duplicateHost, "duplicate_host"),
            (.badTarget, "bad_target"),
            (.subprotocol, "subprotocol"),
            (.headTimeout, "head_timeout"),
            (.headTooLarge, "head_too_large"),
            (.bodyTimeout, "body_timeout"),
        ]
        for (code, text) in pinned { #expect(code.rawValue == text) }
        #expect(Set(pinned.map(\.1)).count == pinned.count)
        // Every shared code is on one of the lists of its ways in; the scenes' own are pinned beside them.
        #expect(Set(ErrorCode.webSocket + ErrorCode.api + ErrorCode.request) == Set(pinned.map(\.0)))
    }
}

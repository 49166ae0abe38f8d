import Testing
import LayercastHub
@testable import LayercastServer

@Suite struct RequestFramingTests {
    func refusal(_ text: String) -> RequestRefusal? {
        guard let parsed = RequestHead.parse(Array(text.utf8)) else { Issue.record("incomplete head"); return nil }
        switch parsed.head {
        case .failure(let refusal): return refusal
        case .success(let head): return RequestFraming.refusal(for: head)
        }
    }

    func reason(_ text: String) -> String? { refusal(text)?.reason.rawValue }

    @Test func aPlainGetAndPostPass() {
        #expect(refusal("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n") == nil)
        #expect(refusal("POST /api/rooms/x/rain HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n") == nil)
        #expect(refusal("GET / HTTP/1.0\n\n") == nil, "bare LF line ends are read (RFC 9112 §2.2)")
    }

    @Test func theHeadIsIncompleteUntilItsEmptyLine() {
        #expect(RequestHead.parse(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)) == nil)
        let parsed = RequestHead.parse(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nBODY".utf8))
        #expect(parsed?.length == 27)
    }

    @Test func smugglingShapesAreRefused() {
        #expect(reason("POST / HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n")
            == "content_length_and_transfer_encoding")
        #expect(reason("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n") == "duplicate_content_length")
        #expect(reason("POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\n") == "duplicate_content_length")
        #expect(reason("POST / HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\n") == "bad_content_length")
        #expect(reason("POST / HTTP/1.1\r\nContent-Length: 2abc\r\n\r\n") == "bad_content_length")
        #expect(reason("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == "bad_content_length")
        #expect(reason("POST / HTTP/1.1\r\nTransfer-Encoding : chunked\r\n\r\n") == "bad_header")
        #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding\t: chunked\r\n\r\n")?.message
            == "no white space is allowed between a header name and its colon")
        #expect(reason("GET / HTTP/1.1\r\nX-A: 1\r\n continued\r\n\r\n") == "bad_header")
        #expect(reason("GET / HTTP/1.1\r\nno colon here\r\n\r\n") == "bad_header")
        #expect(reason("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == "duplicate_host")
        #expect(reason("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n") == "bad_request_line")
    }

    @Test func methodsAreCaseSensitiveAndOthersAre405() {
        for method in ["get", "Get", "post", "HEAD", "PUT", "DELETE", "OPTIONS", "BREW"] {
            #expect(refusal("\(method) / HTTP/1.1\r\n\r\n") == RequestFraming.methodRefusal, "\(method)")
        }
        #expect(reason("G@T / HTTP/1.1\r\n\r\n") == "bad_request_line")
        #expect(reason("GET / HTTP/2.0\r\n\r\n") == "bad_request_line")
        #expect(reason("GET  / HTTP/1.1\r\n\r\n") == "bad_request_line")
    }

    @Test func pathsWithControlCharactersAreRefused() {
        #expect(reason("GET /api/players/a%0d%0aSet-Cookie:x HTTP/1.1\r\n\r\n") == "bad_target")
        #expect(reason("GET /a%00b HTTP/1.1\r\n\r\n") == "bad_target")
        #expect(refusal("GET /ws?room=a%0d%0ab HTTP/1.1\r\n\r\n") == nil, "the query is the handlers' to judge")
        // … but for a NUL, on which libwebsockets drops the request unanswered (schemathesis found it).
        #expect(reason("GET /api/rooms/a/leaderboard?=%00 HTTP/1.1\r\n\r\n") == "bad_target")
    }

    @Test func aHandshakeMustOfferLayercastV1() {
        let handshake = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        #expect(reason(handshake + "Sec-WebSocket-Protocol: chat\r\n\r\n") == "subprotocol")
        #expect(reason(handshake + "\r\n") == "subprotocol")
        #expect(refusal(handshake + "Sec-WebSocket-Protocol: chat, layercast.v1\r\n\r\n") == nil)
    }

    @Test func aRefusalIsAWholeAnswerThatCloses() {
        let text = String(decoding: RequestFraming.methodRefusal.response(headers: [("x-content-type-options", "nosniff")]), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\nx-content-type-options: nosniff\r\nallow: GET, POST\r\n"))
        let body = #"{"error":"bad_method","message":"only GET and POST are served (methods are case-sensitive)"}"# + "\n"
        #expect(text.contains("content-type: application/json\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n"))
        #expect(text.hasSuffix(body))
    }
}

@Suite struct NameRuleTests {
    @Test func roomAndSceneNames() {
        #expect(NameRule.isValid("lobby") && NameRule.isValid("a-B_9") && NameRule.isValid(String(repeating: "x", count: 32)))
        for bad in ["", String(repeating: "x", count: 33), "has space", "a/b", "lobby\r\nSet-Cookie:x=", "café", "a.b"] {
            #expect(!NameRule.isValid(bad), "\(bad)")
        }
    }

    @Test func playerIDs() {
        #expect(NameRule.isPlayerID("player-42") && NameRule.isPlayerID("anon-Xy3kQ0mZr8u1T5bWcV9a2w") && NameRule.isPlayerID("a.b:c"))
        #expect(!NameRule.isPlayerID("ada\"<b>") && !NameRule.isPlayerID("") && !NameRule.isPlayerID(String(repeating: "x", count: 129)))
    }

    @Test func queryStringsAreDecodedWhole() {
        let arguments = QueryString.arguments(of: "/ws?scene=radar&room=lobby%0d%0aSet-Cookie%3Ax%3D&role=spectator&x=a+b&room=second")
        #expect(arguments["room"] == "lobby\r\nSet-Cookie:x=")
        #expect(arguments["role"] == "spectator" && arguments["x"] == "a b" && arguments["scene"] == "radar")
        #expect(QueryString.arguments(of: "/ws") == [:])
        #expect(QueryString.decoded("100%") == "100%" && QueryString.decoded("%zz") == "%zz")
    }

    @Test func logTextEscapesControlsAndNonASCII() {
        #expect(LogText.escaped("a\r\nb\\é") == "a\\x0D\\x0Ab\\x5C\\xC3\\xA9")
        #expect(LogText.escaped(String(repeating: "y", count: 120)) == String(repeating: "y", count: 100) + "…")
    }
}

@Suite struct CloseFrameRuleTests {
    func code(_ bytes: [UInt8]) -> Int32? { CloseFrameRule.violation(bytes)?.code }

    @Test func wellFormedClosesPass() {
        #expect(CloseFrameRule.violation([UInt8]()) == nil)
        #expect(code([0x03, 0xE8]) == nil)                                   // 1000
        #expect(code([0x0F, 0xA0] + Array("bye é".utf8)) == nil)             // 4000 and a UTF-8 reason
    }

    @Test func badCodesAndPayloadsAre1002() {
        #expect(code([0x03]) == 1002)
        for bad in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
            #expect(code([UInt8(bad >> 8), UInt8(bad & 0xFF)]) == 1002, "\(bad)")
        }
    }

    @Test func aReasonThatIsNotUTF8Is1007() {
        #expect(code([0x03, 0xE8, 0xFF, 0xFE]) == 1007)
        #expect(code([0x03, 0xE8, 0xC3]) == 1007)  // a cut sequence
    }
}

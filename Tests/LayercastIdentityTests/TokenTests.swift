import Foundation
import Testing
@testable import LayercastIdentity

// The example in docs/protocol.md, "Player tokens".
private let exampleSecret = "layercast-example-secret"
private let examplePayload = #"{"sub":"player-42","name":"Ada","exp":1795341600}"#
private let exampleToken =
    "eyJzdWIiOiJwbGF5ZXItNDIiLCJuYW1lIjoiQWRhIiwiZXhwIjoxNzk1MzQxNjAwfQ.lrGtphKsha1gvMqCKlSaDNFwyrq_Vn5CmuTmsztXbwg"
private let exampleExpiry = Date(timeIntervalSince1970: 1_795_341_600)  // 2026-11-22T10:00:00Z
private let dayBefore = exampleExpiry.addingTimeInterval(-86_400)

private let secret = "test-secret-0123456789"
private let verifier = TokenVerifier(secret: secret)
private let now = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
private let inAnHour = 1_780_003_600

/// A token over any payload text, signed with `secret`.
private func signed(_ payload: String, with key: String = secret) -> String {
    TokenSigner.sign(payload: payload, secret: Array(key.utf8))
}

private func error(_ token: String, at time: Date = now, verifier: TokenVerifier = verifier) -> TokenError? {
    if case .failure(let error) = verifier.verify(token, now: time) { return error }
    return nil
}

@Suite struct ReferenceHMACTests {
    @Test func sha256MatchesFIPSVectors() {
        #expect(Reference.hex(Reference.sha256(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Reference.hex(Reference.sha256([]))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func hmacMatchesRFC4231() {
        // Test case 1
        #expect(Reference.hex(Reference.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2
        #expect(Reference.hex(Reference.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block is hashed first.
        #expect(Reference.hex(Reference.hmacSHA256(
            key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func base64urlMatchesRFC4648() {
        // RFC 4648 §10 vectors, padding removed; plus bytes that use - and _.
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(Reference.base64url(Array(text.utf8)) == encoded)
            #expect(Base64URL.encode(Array(text.utf8)) == encoded)
            #expect(Base64URL.decode(Array(encoded.utf8)) == .success(Array(text.utf8)))
        }
        #expect(Reference.base64url([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
    }
}

@Suite struct DocumentedExampleTests {
    @Test func exampleTokenIsWhatThePythonSnippetComputes() {
        #expect(Reference.token(payload: examplePayload, secret: exampleSecret) == exampleToken)
    }

    @Test func signerProducesTheExampleByteForByte() throws {
        #expect(TokenSigner.sign(payload: examplePayload, secret: Array(exampleSecret.utf8)) == exampleToken)
        #expect(try TokenSigner.sign(id: "player-42", name: "Ada", expires: exampleExpiry, secret: exampleSecret) == exampleToken)
    }

    @Test func aSecretLongerThanTheHashBlockSignsAndVerifies() throws {
        // 100 bytes, more than SHA-256's 64-byte block: HMAC hashes the key first (RFC 2104).
        let long = String(repeating: "layercast-", count: 10)
        let token = "eyJzdWIiOiJwbGF5ZXItNDIiLCJuYW1lIjoiQWRhIiwiZXhwIjoxNzk1MzQxNjAwfQ.98x3GCpHk01P7umCa6NrNZ0EisX30A3M800L6CFBKho"
        #expect(Reference.token(payload: examplePayload, secret: long) == token)
        #expect(TokenSigner.sign(payload: examplePayload, secret: Array(long.utf8)) == token)
        #expect(TokenVerifier(secret: long).verify(token, now: dayBefore)
            == .success(PlayerIdentity(id: "player-42", name: "Ada", expires: exampleExpiry)))
        #expect(TokenVerifier(secret: long + "x").verify(token, now: dayBefore)
            == .failure(TokenError(.badSignature, "token signature does not match")))
    }

    @Test func exampleTokenVerifies() {
        let result = TokenVerifier(secret: exampleSecret).verify(exampleToken, now: dayBefore)
        #expect(result == .success(PlayerIdentity(id: "player-42", name: "Ada", expires: exampleExpiry)))
        #expect(TokenVerifier(secret: exampleSecret).verify(exampleToken, now: exampleExpiry)
            == .failure(TokenError(.expired, "token expired at 2026-11-22T10:00:00Z")))
    }

    @Test func docsShowTheExample() throws {
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/protocol.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "## Player tokens")).upperBound
        let tokens = text[section...]
        #expect(tokens.contains(exampleToken))
        #expect(tokens.contains(exampleSecret))
        #expect(tokens.contains(examplePayload))
        #expect(tokens.contains("token expired at 2026-11-22T10:00:00Z"))
    }
}

@Suite struct TokenVerificationTests {
    @Test func roundTrip() throws {
        let expires = Date(timeIntervalSince1970: Double(inAnHour))
        let token = try TokenSigner.sign(id: "app:user_7.x-1", name: "  Zoë 🧧  ", expires: expires, issuedAt: now, secret: Array(secret.utf8))
        #expect(verifier.verify(token, now: now) == .success(PlayerIdentity(id: "app:user_7.x-1", name: "Zoë 🧧", expires: expires)))
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
    }

    @Test func signerRoundsExpiryDownAndWritesCompactPayload() throws {
        let token = try TokenSigner.sign(id: "p", name: "N", expires: Date(timeIntervalSince1970: 1_780_003_600.9),
                                         issuedAt: Date(timeIntervalSince1970: 1_780_000_000.5), secret: secret)
        #expect(token == signed(#"{"sub":"p","name":"N","iat":1780000000,"exp":1780003600}"#))
    }

    @Test func secretAsStringIsItsUTF8() {
        let token = signed(#"{"sub":"p","name":"N","exp":\#(inAnHour)}"#)
        #expect(TokenVerifier(secret: Array(secret.utf8)).verify(token, now: now) == verifier.verify(token, now: now))
        #expect((try? verifier.verify(token, now: now).get()) != nil)
    }

    @Test func unknownClaimsAreIgnoredAndTokensUpTo2048BytesAreAccepted() throws {
        let prefix = #"{"sub":"p","name":"N","exp":\#(inAnHour),"pad":""#
        // 43 signature characters and the dot; base64 of n bytes is ceil(4n/3) characters.
        var padding = 0
        while Base64URL.encode(Array((prefix + String(repeating: "x", count: padding + 1) + #""}"#).utf8)).count + 44 <= 2048 {
            padding += 1
        }
        let token = signed(prefix + String(repeating: "x", count: padding) + #""}"#)
        #expect(token.utf8.count == 2048 || token.utf8.count == 2047)
        #expect(verifier.verify(token, now: now) == .success(PlayerIdentity(id: "p", name: "N", expires: Date(timeIntervalSince1970: Double(inAnHour)))))
    }

    @Test func expiryIsExclusive() {
        let token = signed(#"{"sub":"p","name":"N","exp":\#(inAnHour)}"#)
        let expiry = Date(timeIntervalSince1970: Double(inAnHour))
        #expect((try? verifier.verify(token, now: expiry.addingTimeInterval(-0.001)).get()) != nil)
        #expect(error(token, at: expiry) == TokenError(.expired, "token expired at 2026-05-28T21:26:40Z"))
        #expect(error(token, at: expiry.addingTimeInterval(86_400 * 365))?.code == .expired)
    }

    @Test func lifetimeIsLimited() {
        let thirtyDays = Int(now.timeIntervalSince1970) + 30 * 86_400
        #expect((try? verifier.verify(signed(#"{"sub":"p","name":"N","exp":\#(thirtyDays)}"#), now: now).get()) != nil)
        let tooLate = signed(#"{"sub":"p","name":"N","exp":\#(thirtyDays + 1)}"#)
        #expect(error(tooLate) == TokenError(.badClaims,
            "token payload: exp 2026-06-27T20:26:41Z is more than 30 days from now (exp is unix seconds, not milliseconds)"))
        let milliseconds = signed(#"{"sub":"p","name":"N","exp":\#(inAnHour * 1000)}"#)
        #expect(error(milliseconds)?.code == .badClaims)
        #expect((try? TokenVerifier(secret: secret, maximumLifetime: nil).verify(tooLate, now: now).get()) != nil)
        #expect(error(tooLate, verifier: TokenVerifier(secret: secret, maximumLifetime: 86_400))?.message
            == "token payload: exp 2026-06-27T20:26:41Z is more than 1 day from now (exp is unix seconds, not milliseconds)")
    }

    @Test func tamperingIsDetected() throws {
        let token = signed(#"{"sub":"p","name":"N","exp":\#(inAnHour)}"#)
        let parts = token.split(separator: ".").map(String.init)
        let mismatch = TokenError(.badSignature, "token signature does not match")

        // Another payload under the original signature.
        let forged = Base64URL.encode(Array(#"{"sub":"admin","name":"N","exp":\#(inAnHour)}"#.utf8))
        #expect(error(forged + "." + parts[1]) == mismatch)
        // One character of the payload changed.
        var payload = Array(parts[0])
        payload[3] = payload[3] == "A" ? "B" : "A"
        #expect(error(String(payload) + "." + parts[1]) == mismatch)
        // One character of the signature changed.
        var signature = Array(parts[1])
        signature[0] = signature[0] == "A" ? "B" : "A"
        #expect(error(parts[0] + "." + String(signature)) == mismatch)
        // Signed with another secret.
        #expect(error(signed(#"{"sub":"p","name":"N","exp":\#(inAnHour)}"#, with: "another-secret")) == mismatch)
    }

    @Test func signatureIsCheckedBeforeThePayloadIsRead() {
        // Not JSON, and not signed with our secret: refused for the signature.
        #expect(error(signed("not json", with: "another-secret"))?.code == .badSignature)
        #expect(error(signed("not json"))?.code == .malformed)
    }

    @Test func malformedTokens() {
        let payloadPart = Base64URL.encode(Array(#"{"sub":"p","name":"N","exp":\#(inAnHour)}"#.utf8))
        let signaturePart = String(signed(#"{"sub":"p","name":"N","exp":\#(inAnHour)}"#).split(separator: ".")[1])
        let notBase64 = "token payload is not base64url (RFC 4648 §5, without padding)"
        let cases: [(String, String)] = [
            ("", "token is empty"),
            (String(repeating: "a", count: 2049), "token is 2049 bytes long; at most 2048 are allowed"),
            (payloadPart, "token must be <payload>.<signature>, two base64url parts joined by one \".\"; it has no \".\""),
            (payloadPart + "." + signaturePart + ".x",
             "token must be <payload>.<signature>, two base64url parts joined by one \".\"; it has 2 \".\""),
            ("." + signaturePart, "token payload is empty"),
            (payloadPart + ".", "token signature is empty"),
            (payloadPart + "=." + signaturePart, notBase64 + ": it contains \"=\" (leave out the = padding)"),
            ("ab+c." + signaturePart, notBase64 + ": it contains \"+\" (use - and _ for + and /)"),
            (payloadPart + "." + signaturePart + "\n",
             "token signature is not base64url (RFC 4648 §5, without padding): it contains U+000A"),
            ("abcde." + signaturePart, notBase64 + ": its length (5) is not possible"),
            ("ab." + signaturePart, notBase64 + ": its last character has unused bits set"),
            ("é." + signaturePart, notBase64 + ": it contains U+00C3"),
            (payloadPart + "." + String(signaturePart.dropLast(3)),
             "token signature must be 32 bytes (43 base64url characters); it is 30 bytes"),
            (signed("not json"), "token payload is not JSON: invalid token near 'not'"),
            (signed("[1,2]"), "token payload must be a JSON object, not array"),
            (signed(#""player""#), "token payload must be a JSON object, not string"),
        ]
        for (token, message) in cases {
            let refused = error(token)
            #expect(refused == TokenError(.malformed, message), "\(token.debugDescription)")
        }
        // Messages whose wording is jansson's: only the code and the prefix are ours.
        for payload in [#"{"sub":"p","sub":"q","name":"N","exp":\#(inAnHour)}"#, #"{"sub":"p""#, "{}x"] {
            let refused = error(signed(payload))
            #expect(refused?.code == .malformed)
            #expect(refused?.message.hasPrefix("token payload is not JSON: ") == true)
        }
        // Signed, but not UTF-8: {"é":1} in Latin-1.
        let latin1 = Base64URL.encode([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d])
        let mac = Reference.hmacSHA256(key: Array(secret.utf8), message: Array(latin1.utf8))
        let refused = error(latin1 + "." + Reference.base64url(mac))
        #expect(refused?.code == .malformed)
        #expect(refused?.message.hasPrefix("token payload is not JSON: ") == true)
    }

    @Test func badClaims() {
        func claimError(_ members: String) -> TokenError? { error(signed("{" + members + "}")) }
        let exp = #""exp":\#(inAnHour)"#
        let badID = "token payload: sub must be 1–64 characters of A–Z a–z 0–9 _ . : -"
        let badName = { (count: Int) in "token payload: name must be 1–32 characters after trimming spaces (it has \(count))" }
        let badTime = { (claim: String) in "token payload: \(claim) must be an integer number of unix seconds (1 to 253402300799)" }
        let cases: [(String, String)] = [
            (#""name":"N",\#(exp)"#, "token payload: sub is missing"),
            (#""sub":"p",\#(exp)"#, "token payload: name is missing"),
            (#""sub":"p","name":"N""#, "token payload: exp is missing"),
            (#""sub":42,"name":"N",\#(exp)"#, "token payload: sub must be a string, not number"),
            (#""sub":"p","name":null,\#(exp)"#, "token payload: name must be a string, not null"),
            (#""sub":"","name":"N",\#(exp)"#, badID),
            (#""sub":"a b","name":"N",\#(exp)"#, badID),
            (#""sub":"a/b","name":"N",\#(exp)"#, badID),
            (#""sub":"zoë","name":"N",\#(exp)"#, badID),
            (#""sub":"\#(String(repeating: "x", count: 65))","name":"N",\#(exp)"#, badID),
            (#""sub":"anon-0123456789abcdef","name":"N",\#(exp)"#,
             "token payload: sub must not begin with \"anon-\" (kept for anonymous players)"),
            (#""sub":"ANON-x","name":"N",\#(exp)"#,
             "token payload: sub must not begin with \"anon-\" (kept for anonymous players)"),
            (#""sub":"p","name":"\#(String(repeating: "é", count: 33))",\#(exp)"#, badName(33)),
            (#""sub":"p","name":"",\#(exp)"#, badName(0)),
            (#""sub":"p","name":" \t\n ",\#(exp)"#, badName(0)),
            (#""sub":"p","name":"A\u0007B",\#(exp)"#,
             "token payload: name must not contain control characters (it has U+0007)"),
            (#""sub":"p","name":"A\u0000",\#(exp)"#,
             "token payload: name must not contain control characters (it has U+0000)"),
            (#""sub":"p","name":"A\u202eB",\#(exp)"#,
             "token payload: name must not contain control characters (it has U+202E)"),
            (#""sub":"p","name":"A\u0085B",\#(exp)"#,
             "token payload: name must not contain control characters (it has U+0085)"),
            (#""sub":"p","name":"N","exp":1780003600.5"#, badTime("exp")),
            (#""sub":"p","name":"N","exp":"1780003600""#, badTime("exp")),
            (#""sub":"p","name":"N","exp":0"#, badTime("exp")),
            (#""sub":"p","name":"N","exp":-5"#, badTime("exp")),
            (#""sub":"p","name":"N","exp":1e300"#, badTime("exp")),
            (#""sub":"p","name":"N","exp":253402300800"#, badTime("exp")),
            (#""sub":"p","name":"N","iat":"yesterday",\#(exp)"#, badTime("iat")),
        ]
        for (members, message) in cases {
            #expect(claimError(members) == TokenError(.badClaims, message), "\(members)")
        }
        // Limits are inclusive, counted in Unicode scalars after trimming.
        let longest = String(repeating: "🧧", count: 32)
        #expect(verifier.verify(signed(#"{"sub":"\#(String(repeating: "x", count: 64))","name":"  \#(longest) ",\#(exp)}"#), now: now)
            == .success(PlayerIdentity(id: String(repeating: "x", count: 64), name: longest, expires: Date(timeIntervalSince1970: Double(inAnHour)))))
    }

    @Test func signerRefusesClaimsTheVerifierWould() {
        let expires = Date(timeIntervalSince1970: Double(inAnHour))
        #expect(throws: TokenError(.badClaims, "token payload: sub must be 1–64 characters of A–Z a–z 0–9 _ . : -")) {
            try TokenSigner.sign(id: "a b", name: "N", expires: expires, secret: secret)
        }
        #expect(throws: TokenError(.badClaims, "token payload: name must be 1–32 characters after trimming spaces (it has 0)")) {
            try TokenSigner.sign(id: "p", name: "  ", expires: expires, secret: secret)
        }
        #expect(throws: TokenError.self) {
            try TokenSigner.sign(id: "anon-0123456789abcdef", name: "N", expires: expires, secret: secret)
        }
        #expect(throws: TokenError.self) {
            try TokenSigner.sign(id: "p", name: "N", expires: Date(timeIntervalSince1970: 0), secret: secret)
        }
    }

    @Test func errorMessageTimestamps() {
        #expect(iso8601(unixSeconds: 1) == "1970-01-01T00:00:01Z")
        #expect(iso8601(unixSeconds: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(iso8601(unixSeconds: 1_709_251_199) == "2024-02-29T23:59:59Z")
        #expect(iso8601(unixSeconds: 253_402_300_799) == "9999-12-31T23:59:59Z")
        #expect(iso8601(unixSeconds: 1_795_341_600) == "2026-11-22T10:00:00Z")
    }
}

@Suite struct AnonymousIDTests {
    @Test func validIDs() {
        #expect(PlayerIdentity.isValidAnonymousID("anon-0123456789abcdef"))
        #expect(PlayerIdentity.isValidAnonymousID("anon-" + String(repeating: "A_-z", count: 16)))
        #expect(PlayerIdentity.isValidAnonymousID("anon-Qk3_x-9ZZq0aB7cD1eF2gH"))
    }

    @Test func invalidIDs() {
        for id in [
            "", "anon-", "anon-0123456789abcde", "anon-" + String(repeating: "a", count: 65), "Anon-0123456789abcdef",
            "anon0123456789abcdef", "anon-0123456789abcdef ", "anon-0123456789abcde.", "anon-0123456789abcdé",
            "player-0123456789abcdef", " anon-0123456789abcdef",
        ] {
            #expect(!PlayerIdentity.isValidAnonymousID(id), "\(id.debugDescription)")
            #expect(PlayerIdentity(anonymousID: id) == nil)
        }
    }

    @Test func madeIDsAreValidAndDistinct() {
        let ids = (0..<100).map { _ in PlayerIdentity.makeAnonymousID() }
        #expect(ids.allSatisfy(PlayerIdentity.isValidAnonymousID))
        #expect(ids.allSatisfy { $0.count == 27 })
        #expect(Set(ids).count == ids.count)
    }

    @Test func anonymousIdentity() {
        let identity = PlayerIdentity(anonymousID: "anon-Xy3k0123456789ab")
        #expect(identity == PlayerIdentity(id: "anon-Xy3k0123456789ab", name: "Guest-Xy3k", expires: nil))
        #expect(identity?.isAnonymous == true)
        #expect(PlayerIdentity(id: "p", name: "N", expires: now).isAnonymous == false)
    }
}

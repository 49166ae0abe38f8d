import Foundation
import Testing
import LayercastIdentity

/// Public ids, guest names and the secret's fingerprint pinned to their values, so that the same
/// credential keeps the same public id across releases (and across HMAC implementations). Each
/// value is also what `Reference.hmacSHA256` computes.
@Suite struct PlayerPseudonymsTests {
    let pseudonyms = PlayerPseudonyms(secret: Array("test-secret".utf8))
    /// Longer than SHA-256's 64-byte block, so HMAC hashes the key first.
    let longSecret = (0..<100).map { UInt8($0) }
    let anonymousID = "anon-Xy3kQ0mZr8u1T5bWcV9a2w"

    @Test func anAnonymousPlayersPublicIdAndNameArePinned() throws {
        let identity = try #require(PlayerIdentity(anonymousID: anonymousID))
        #expect(pseudonyms.publicPlayer(identity) == PublicPlayer(id: "p-10bb1995ead4cec4", name: "Guest-10bb", isAnonymous: true))
        #expect(PlayerPseudonyms(secret: longSecret).publicPlayer(identity).id == "p-19c4e9239be1c413")
        #expect(Self.reference(secret: Array("test-secret".utf8), "anon:" + anonymousID) == "10bb1995ead4cec4")
        #expect(Self.reference(secret: longSecret, "anon:" + anonymousID) == "19c4e9239be1c413")
    }

    @Test func aTokenPlayersPublicIdIsPinned() {
        let identity = PlayerIdentity(id: "user-42", name: "Ada", expires: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(pseudonyms.publicPlayer(identity) == PublicPlayer(id: "p-b5a6a582f86ba951", name: "Ada", isAnonymous: false))
        #expect(Self.reference(secret: Array("test-secret".utf8), "token:user-42") == "b5a6a582f86ba951")
        let shown = PlayerPseudonyms(secret: Array("test-secret".utf8), showsTokenSubjects: true)
        #expect(shown.publicPlayer(identity) == PublicPlayer(id: "user-42", name: "Ada", isAnonymous: false))
    }

    @Test func theFingerprintIsPinned() {
        #expect(pseudonyms.fingerprint == "k-5d1a6b2dc1711ff5")
        #expect(PlayerPseudonyms(secret: longSecret).fingerprint == "k-b21161ae0d49c797")
        #expect(Self.reference(secret: Array("test-secret".utf8), "fingerprint:") == "5d1a6b2dc1711ff5")
    }

    /// The first 8 bytes of HMAC-SHA256(secret, message) in hex, by the tests' own HMAC.
    static func reference(secret: [UInt8], _ message: String) -> String {
        Reference.hex(Array(Reference.hmacSHA256(key: secret, message: Array(message.utf8)).prefix(8)))
    }
}

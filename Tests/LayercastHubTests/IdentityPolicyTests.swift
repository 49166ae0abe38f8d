import Foundation
import LayercastIdentity
import Testing
@testable import LayercastHub

extension IdentityPolicy {
    /// Anonymous play allowed, tokens signed with "token-secret-for-tests", public ids keyed by "test-secret".
    static let anonymousForTests = IdentityPolicy(tokenSecret: "token-secret-for-tests", allowAnonymous: true,
                                                  pseudonyms: PlayerPseudonyms(secret: Array("test-secret".utf8)))
}

@Suite struct IdentityPolicyTests {
    let policy = IdentityPolicy.anonymousForTests
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let secretID = "anon-Xy3kQ0mZr8u1T5bWcV9a2w"

    @Test func anAnonymousIdIsSeenOnlyAsItsKeyedHash() throws {
        let joined = try policy.identify(token: nil, player: secretID, now: now).get()
        #expect(joined.mintedSecret == nil)
        #expect(joined.player.id.hasPrefix("p-") && joined.player.id.utf8.count == 18)
        #expect(!joined.player.id.contains("Xy3k") && !joined.player.name.contains("Xy3k"))
        #expect(joined.player.name == "Guest-" + joined.player.id.dropFirst(2).prefix(4))
        // Stable for the same credential and secret, different under another secret.
        #expect(try policy.identify(token: nil, player: secretID, now: now).get().player == joined.player)
        let other = IdentityPolicy(tokenSecret: nil, allowAnonymous: true, pseudonyms: PlayerPseudonyms(secret: Array("other".utf8)))
        #expect(try other.identify(token: nil, player: secretID, now: now).get().player.id != joined.player.id)
    }

    @Test func aPublicIdIsNoCredential() throws {
        let victim = try policy.identify(token: nil, player: secretID, now: now).get().player
        // Joining with the public id itself is refused; wrapped as an anonymous id it is someone else.
        if case .failure(let error) = policy.identify(token: nil, player: victim.id, now: now) {
            #expect(error.code == .badPlayer)
        } else {
            Issue.record("a public id was taken as a credential")
        }
        let impostor = try policy.identify(token: nil, player: "anon-" + victim.id.dropFirst(2), now: now).get().player
        #expect(impostor.id != victim.id)
    }

    @Test func aJoinWithoutIdGetsAFreshSecretToKeep() throws {
        let joined = try policy.identify(token: nil, player: nil, now: now).get()
        let secret = try #require(joined.mintedSecret)
        #expect(PlayerIdentity.isValidAnonymousID(secret))
        #expect(try policy.identify(token: nil, player: secret, now: now).get().player == joined.player)
    }

    @Test func anyPresentTokenIsCheckedWhateverAnonymousPlayAllows() {
        for token in ["", "x", String(repeating: "a", count: 5000), "e30.e30"] {
            guard case .failure(let error) = policy.identify(token: token, player: secretID, now: now) else {
                Issue.record("token \(token.prefix(20)) was accepted")
                continue
            }
            #expect(error.code == .badToken)
        }
    }

    @Test func tokenPlayersShowTheirNameAndAHashedSubUnlessTheOperatorOptsIn() throws {
        let token = try TokenSigner.sign(id: "user-42", name: "Ada", expires: now + 600, secret: "token-secret-for-tests")
        let hidden = try policy.identify(token: token, player: nil, now: now).get().player
        #expect(hidden.name == "Ada" && hidden.id.hasPrefix("p-") && hidden.id != "user-42" && !hidden.isAnonymous)
        let shown = IdentityPolicy(tokenSecret: "token-secret-for-tests", allowAnonymous: true,
                                   pseudonyms: PlayerPseudonyms(secret: Array("test-secret".utf8), showsTokenSubjects: true))
        #expect(try shown.identify(token: token, player: nil, now: now).get().player.id == "user-42")
        // The same credential reads the player's own totals.
        #expect(try policy.player(credential: token, now: now).get() == hidden)
        #expect(try policy.player(credential: secretID, now: now).get().id == policy.identify(token: nil, player: secretID, now: now).get().player.id)
    }
}

@Suite struct AddressLimitsTests {
    @Test func connectionsJoinsAndTapsAreCountedPerAddress() {
        var rules = AddressLimitRules()
        rules.connections = 2
        rules.anonymousJoinsPerMinute = 3
        rules.tapsPerSecond = 5
        var limits = AddressLimits(rules: rules)
        let connects = [limits.connect("a"), limits.connect("a"), limits.connect("a"), limits.connect("b")]
        #expect(connects == [true, true, false, true])
        limits.disconnect("a", at: 0)
        let again = limits.connect("a")
        #expect(again)
        var joins: [Bool] = []
        for _ in 0..<4 { joins.append(limits.allowAnonymousJoin("a", at: 0)) }
        #expect(joins == [true, true, true, false])
        let later = limits.allowAnonymousJoin("a", at: 20)
        #expect(later)  // one join back every 20 s
        var taps = 0
        for _ in 0..<6 where limits.allowTap("a", at: 1) { taps += 1 }
        #expect(taps == 5)
        let early = limits.allowTap("a", at: 1.1), refilled = limits.allowTap("a", at: 1.25)
        #expect(!early && refilled)  // 5 a second: one more after 0.2 s
    }
}

import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// Provably fair rains: the commitment and the salted plan (docs/protocol.md, "Provably fair rains").
@Suite struct RainCommitmentTests {
    /// The worked example of docs/protocol.md; its digest was computed with Python's hashlib
    /// (and `sha256sum`), not with this code.
    static let example = RainSettings(seed: 7, maxAwardsPerPlayer: 15, maxCoinsPerPlayer: 161, salt: Array(0..<32))

    @Test func theCommitmentHashesTheDocumentedLine() {
        let commitment = RainCommitment(settings: Self.example, size: CGSize(width: 414, height: 736))
        #expect(commitment.text == "layercast-rain/1 seed=7 salt=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "
            + "duration=20 pool=888 winners=27 minCoins=8 maxCoins=88 maxAwardsPerPlayer=15 maxCoinsPerPlayer=161 "
            + "minVisible=0.3 tapRate=8 width=414 height=736\n")
        #expect(commitment.digest == "67731ce02d4f43aa9f8f98875b397cd9218686aaf94d39e629f2043a7b5eb434")
        var other = Self.example
        other.salt[31] ^= 1
        #expect(RainCommitment(settings: other, size: CGSize(width: 414, height: 736)).digest != commitment.digest)
        #expect(RainCommitment.bytes(hex: RainCommitment.hex(other.salt)) == other.salt)
        #expect(RainCommitment.bytes(hex: "0g") == nil && RainCommitment.bytes(hex: "abc") == nil)
    }

    @Test func aSaltedPlanFollowsTheSaltNotTheSeedAlone() {
        // The first 8 bytes of SHA-256("layercast-prizes/1" ‖ salt ‖ seed), from Python's hashlib.
        #expect(RainCommitment.prizeSeed(Self.example) == 8_016_454_027_597_559_660)
        let plan = PrizePlan(settings: Self.example)
        #expect(plan == PrizePlan(settings: Self.example))
        #expect(plan.prizes.count == 27 && plan.prizes.values.reduce(0, +) == 888)
        var unsalted = Self.example
        unsalted.salt = []
        #expect(plan != PrizePlan(settings: unsalted))
        var resalted = Self.example
        resalted.salt = Array(repeating: 9, count: 32)
        #expect(plan.prizes.keys.sorted() != PrizePlan(settings: resalted).prizes.keys.sorted())
    }

    @Test func fairShareLimitsAreTwiceAnEqualShare() {
        #expect(RainSettings.fairShareLimits(packets: 80, pool: 888, players: 11) == (15, 161))
        #expect(RainSettings.fairShareLimits(packets: 40, pool: 400, players: 11) == (8, 72))
        #expect(RainSettings.fairShareLimits(packets: 80, pool: 888, players: 0) == (160, 1776))
        #expect(RainSettings.fairShareLimits(packets: 4, pool: 1, players: 50) == (1, 1))
        #expect(RainSettings.fairShareLimits(packets: 4, pool: .max, players: 1).coins == .max)
    }
}

import LayercastSceneAPI
/// Which packets of a rain pay, and how much: decided by the server from the settings alone, so
/// the same settings always give the same plan (and an audit can recompute it).
public struct PrizePlan: Equatable, Sendable {
    /// Packet index → coins: exactly `winners` entries, each in minCoins…maxCoins, summing to
    /// exactly `pool`.
    public let prizes: [Int: Int]

    /// Mixed into the settings' seed so the plan's draws are independent of the packets' (the
    /// bytes spell "PRIZES").
    public static let seedSalt: UInt64 = 0x5052_495A_4553_0000

    /// The plan for valid `settings` (precondition). Draws, from `SeededRandom(seed: g)`, one
    /// 64-bit word each, where g is `RainCommitment.prizeSeed(settings)` (the first 8 bytes of a
    /// SHA-256 over the secret salt and the seed) or, for a rain without a salt (recorded before
    /// commitments), `settings.seed ^ seedSalt`:
    /// 1. the winners: a partial Fisher–Yates shuffle of 0..<packets, `winners` draws, so every
    ///    set of winning packets is equally likely; the picked order is kept;
    /// 2. the coins, in that order: each winner starts at minCoins and the remainder
    ///    r = pool − winners·minCoins is dealt by the "double average" rule red-packet apps use:
    ///    with k winners left, this one gets an extra amount uniform in lo…hi where
    ///    lo = max(0, r − (k−1)·cap), hi = min(cap, r, ⌊2r/k⌋) and cap = maxCoins − minCoins
    ///    (lo ≤ r/k ≤ hi, so the range is never empty; the last winner gets exactly what is left).
    /// Uniform integers below n are the high word of `next() × n` (bias below n/2^64).
    public init(settings: RainSettings) {
        precondition(settings.validationError() == nil, "invalid rain settings: \(settings.validationError() ?? "")")
        var rng = SeededRandom(seed: settings.salt.isEmpty ? settings.seed ^ Self.seedSalt : RainCommitment.prizeSeed(settings))
        let packets = settings.packets
        let winners = settings.winners

        var order = Array(0..<packets)
        for i in 0..<winners {
            let j = i + Int(Self.uniform(below: UInt64(packets - i), using: &rng))
            order.swapAt(i, j)
        }

        let cap = settings.maxCoins - settings.minCoins
        var remainder = settings.pool - winners * settings.minCoins
        var prizes: [Int: Int] = [:]
        for (n, packet) in order.prefix(winners).enumerated() {
            let left = winners - n
            // (left − 1)·cap may overflow for huge caps; then nothing is forced on this winner.
            let (restCapacity, overflow) = (left - 1).multipliedReportingOverflow(by: cap)
            let lo = overflow ? 0 : max(0, remainder - restCapacity)
            // ⌊2r/k⌋ without overflowing: 2⌊r/k⌋ + ⌊2(r mod k)/k⌋.
            let half = remainder / left
            let twiceAverage = half <= Int.max / 2 - 1 ? 2 * half + (2 * (remainder % left)) / left : Int.max
            let hi = min(cap, remainder, twiceAverage)
            let extra = lo + Int(Self.uniform(below: UInt64(hi - lo) + 1, using: &rng))
            prizes[packet] = settings.minCoins + extra
            remainder -= extra
        }
        self.prizes = prizes
    }

    /// A uniform integer in 0..<n (n ≥ 1): the high word of next() × n.
    static func uniform(below n: UInt64, using rng: inout SeededRandom) -> UInt64 {
        rng.next().multipliedFullWidth(by: n).high
    }
}

import Foundation
import LayercastSceneAPI

/// The settings of one red-packet rain (docs/scenes.md §1): how long packets fall and the prize
/// policy the server applies to them. The seed left the outcome to "the backend"; here a pool of
/// coins is shared by `winners` packets chosen from the rain's `packets`.
public struct RainSettings: Equatable, Sendable {
    /// Seconds of falling, 1…600. The seed's campaign length is not given; 20 s is our default.
    public var duration: Double = 20
    /// Coins shared by the winning packets.
    public var pool: Int = 888
    /// Paying packets (the seed's demo: one in three of 80).
    public var winners: Int = 27
    /// The fewest coins a winning packet pays.
    public var minCoins: Int = 8
    /// The most coins a winning packet pays.
    public var maxCoins: Int = 88
    /// Decides every random choice of the rain; 0 … 2^53−1 so that it survives JSON.
    public var seed: UInt64 = 0
    /// Most packets one player may claim in this rain; 0: no limit.
    public var maxAwardsPerPlayer: Int = 0
    /// Most coins one player may win in this rain (an award that would pass it pays what is
    /// left); 0: no limit.
    public var maxCoinsPerPlayer: Int = 0
    /// Seconds a packet must have been on the tapper's screen (its age at the tap's resolution
    /// time) before it can be claimed: about a human's reaction time.
    public var minVisible: Double = 0.3
    /// Taps per second one player may make while the rain runs (bursts of as many).
    public var tapRate: Double = 8
    /// 32 secret random bytes drawn for each rain: with the seed they decide the prize plan,
    /// and the commitment hides both until the rain is over. Empty only for rains recorded
    /// before commitments existed, whose plan follows the seed alone.
    public var salt: [UInt8] = []

    /// Packets spawned per second: the seed's timer every 1/4 s.
    public static let packetsPerSecond: Double = 4
    /// The largest seed a JSON number carries exactly.
    public static let maxSeed: UInt64 = (1 << 53) - 1

    /// The bytes in a salt.
    public static let saltBytes = 32
    /// The most taps per second a rain may allow (the server's limit outside rains).
    public static let maxTapRate: Double = 20

    /// Settings with the defaults above unless told otherwise; check them with `validationError`.
    public init(duration: Double = 20, pool: Int = 888, winners: Int = 27, minCoins: Int = 8,
                maxCoins: Int = 88, seed: UInt64 = 0, maxAwardsPerPlayer: Int = 0, maxCoinsPerPlayer: Int = 0,
                minVisible: Double = 0.3, tapRate: Double = 8, salt: [UInt8] = []) {
        self.duration = duration
        self.pool = pool
        self.winners = winners
        self.minCoins = minCoins
        self.maxCoins = maxCoins
        self.seed = seed
        self.maxAwardsPerPlayer = maxAwardsPerPlayer
        self.maxCoinsPerPlayer = maxCoinsPerPlayer
        self.minVisible = minVisible
        self.tapRate = tapRate
        self.salt = salt
    }

    /// The limits that hold one of `players` players (at least 1) to twice an equal share: at
    /// most ⌈2 · packets ÷ players⌉ packets and ⌊2 · pool ÷ players⌋ coins (at least 1 each).
    public static func fairShareLimits(packets: Int, pool: Int, players: Int) -> (awards: Int, coins: Int) {
        let n = max(1, players)
        let awards = max(1, (2 * packets + n - 1) / n)
        // ⌊2·pool/n⌋ = 2·⌊pool/n⌋ + ⌊2·(pool mod n)/n⌋, without overflowing.
        let (twiceShare, overflow) = (pool / n).multipliedReportingOverflow(by: 2)
        return (awards, overflow ? Int.max : max(1, twiceShare + 2 * (pool % n) / n))
    }

    /// Packets the rain spawns: one every 0.25 s from its start, the last at
    /// `duration − 0.25` at the latest. 0 for a duration that is not a number.
    public var packets: Int {
        guard duration.isFinite, duration > 0 else { return 0 }
        return Int((min(duration, 1e6) * Self.packetsPerSecond).rounded(.down))
    }

    /// nil when valid, else a message naming the field, e.g. "winners must be at most packets (80)".
    public func validationError() -> String? {
        if !duration.isFinite || duration < 1 || duration > 600 {
            return "duration must be a number of seconds from 1 to 600"
        }
        if pool < 0 { return "pool must be at least 0" }
        if winners < 0 { return "winners must be at least 0" }
        if minCoins < 0 { return "minCoins must be at least 0" }
        if maxCoins < 0 { return "maxCoins must be at least 0" }
        if minCoins > maxCoins { return "minCoins must be at most maxCoins (\(maxCoins))" }
        if winners > packets { return "winners must be at most packets (\(packets))" }
        if winners == 0 {
            if pool != 0 { return "pool must be 0 when winners is 0" }
        } else {
            // winners ≤ 2400 here, but the coin bounds may be huge: an overflowing product is
            // a bound no Int pool can pass.
            let (low, lowOverflow) = winners.multipliedReportingOverflow(by: minCoins)
            let (high, highOverflow) = winners.multipliedReportingOverflow(by: maxCoins)
            if lowOverflow || pool < low {
                return "pool must be at least winners × minCoins (\(lowOverflow ? "more than \(Int.max)" : "\(low)"))"
            }
            if !highOverflow, pool > high { return "pool must be at most winners × maxCoins (\(high))" }
        }
        if seed > Self.maxSeed { return "seed must be at most 2^53 − 1 (\(Self.maxSeed))" }
        if maxAwardsPerPlayer < 0 { return "maxAwardsPerPlayer must be at least 0 (0: no limit)" }
        if maxCoinsPerPlayer < 0 { return "maxCoinsPerPlayer must be at least 0 (0: no limit)" }
        if !minVisible.isFinite || minVisible < 0 || minVisible > 5 { return "minVisible must be a number of seconds from 0 to 5" }
        if !tapRate.isFinite || tapRate < 1 || tapRate > Self.maxTapRate { return "tapRate must be a number of taps per second from 1 to 20" }
        if !salt.isEmpty, salt.count != Self.saltBytes { return "salt must be \(Self.saltBytes) bytes" }
        return nil
    }
}

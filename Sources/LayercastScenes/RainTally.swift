/// What one player has won in one rain.
public struct RainTally: Equatable, Sendable {
    public private(set) var packets = 0
    public private(set) var coins = 0

    public init() {}

    mutating func add(coins paid: Int) {
        packets += 1
        coins += paid
    }
}

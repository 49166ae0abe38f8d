import LayercastSceneAPI
/// What one client address may do, over all the player ids it uses: how many connections it
/// holds, how many anonymous players it brings in a minute and how many taps it makes a second.
struct AddressLimits {
    /// A refused request, by the rule that refused it (`/metrics`: `layercast_host_refusals_total`).
    enum Rule: String, CaseIterable {
        case connections
        case anonymousJoins = "anonymous_joins"
        case taps
    }

    private struct Entry {
        var connections = 0
        var joins: RateLimiter
        var taps: RateLimiter
    }

    let rules: AddressLimitRules
    private var entries: [String: Entry] = [:]

    init(rules: AddressLimitRules) {
        self.rules = rules
    }

    /// Counts a new connection from `address`; false, counting nothing, when it already holds the limit.
    mutating func connect(_ address: String) -> Bool {
        var entry = entries[address] ?? makeEntry()
        guard entry.connections < rules.connections else { return false }
        entry.connections += 1
        entries[address] = entry
        return true
    }

    /// Forgets a closed connection of `address`, and, once many addresses are kept, every address
    /// that holds no connection and whose buckets have refilled (they would be made anew as they are).
    mutating func disconnect(_ address: String, at now: Double) {
        entries[address]?.connections -= 1
        if entries.count > Self.pruneAbove {
            entries = entries.filter { $0.value.connections > 0 || !$0.value.joins.isFull(at: now) || !$0.value.taps.isFull(at: now) }
        } else if let entry = entries[address], entry.connections <= 0, entry.joins.isFull(at: now), entry.taps.isFull(at: now) {
            entries[address] = nil
        }
    }

    /// Addresses kept before idle ones are pruned.
    static let pruneAbove = 10_000

    /// Takes an anonymous join from `address`'s bucket at `now`.
    mutating func allowAnonymousJoin(_ address: String, at now: Double) -> Bool {
        let fresh = makeEntry()
        return entries[address, default: fresh].joins.allow(at: now)
    }

    /// Takes a tap from `address`'s bucket at `now`.
    mutating func allowTap(_ address: String, at now: Double) -> Bool {
        let fresh = makeEntry()
        return entries[address, default: fresh].taps.allow(at: now)
    }

    private func makeEntry() -> Entry {
        let joins = Double(rules.anonymousJoinsPerMinute)
        return Entry(joins: RateLimiter(rate: joins / 60, burst: joins), taps: RateLimiter(rate: rules.tapsPerSecond, burst: rules.tapsPerSecond))
    }
}

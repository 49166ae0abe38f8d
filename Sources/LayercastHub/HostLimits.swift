import LayercastSceneKit
/// What one client address may do, over all the player ids it uses: how many connections it
/// holds, how many anonymous players it brings in a minute and how many taps it makes a second.
struct HostLimits {
    /// A refused request, by the rule that refused it (`/metrics`: `layercast_host_refusals_total`).
    enum Rule: String, CaseIterable {
        case connections
        case anonymousJoins = "anonymous_joins"
        case taps
    }

    private struct Host {
        var connections = 0
        var joins: RateLimiter
        var taps: RateLimiter
    }

    let rules: HostLimitRules
    private var hosts: [String: Host] = [:]

    init(rules: HostLimitRules) {
        self.rules = rules
    }

    /// Counts a new connection from `host`; false, counting nothing, when it already holds the limit.
    mutating func connect(_ host: String) -> Bool {
        var entry = hosts[host] ?? makeHost()
        guard entry.connections < rules.connections else { return false }
        entry.connections += 1
        hosts[host] = entry
        return true
    }

    /// Forgets a closed connection of `host`, and, once many addresses are kept, every address
    /// that holds no connection and whose buckets have refilled (they would be made anew as they are).
    mutating func disconnect(_ host: String, at now: Double) {
        hosts[host]?.connections -= 1
        if hosts.count > Self.pruneAbove {
            hosts = hosts.filter { $0.value.connections > 0 || !$0.value.joins.isFull(at: now) || !$0.value.taps.isFull(at: now) }
        } else if let entry = hosts[host], entry.connections <= 0, entry.joins.isFull(at: now), entry.taps.isFull(at: now) {
            hosts[host] = nil
        }
    }

    /// Addresses kept before idle ones are pruned.
    static let pruneAbove = 10_000

    /// Takes an anonymous join from `host`'s bucket at `now`.
    mutating func allowAnonymousJoin(_ host: String, at now: Double) -> Bool {
        let fresh = makeHost()
        return hosts[host, default: fresh].joins.allow(at: now)
    }

    /// Takes a tap from `host`'s bucket at `now`.
    mutating func allowTap(_ host: String, at now: Double) -> Bool {
        let fresh = makeHost()
        return hosts[host, default: fresh].taps.allow(at: now)
    }

    private func makeHost() -> Host {
        let joins = Double(rules.anonymousJoinsPerMinute)
        return Host(joins: RateLimiter(rate: joins / 60, burst: joins), taps: RateLimiter(rate: rules.tapsPerSecond, burst: rules.tapsPerSecond))
    }
}

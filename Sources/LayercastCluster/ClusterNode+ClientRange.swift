import Foundation
import LayercastEngine

/// A starting node's range of client numbers (`ClusterKeys.clientRanges`), so that client ids are
/// unique over the cluster.
extension ClusterNode {
    /// Registers a starting node: takes a range of client numbers from Redis (waiting up to
    /// `wait` seconds for it) so that client ids are unique over the cluster; answers the first
    /// number of the range. Called once, before the node serves.
    public static func clientRange(at address: RedisAddress, wait: Double = 5) throws(ClusterError) -> Int {
        let clock = MonotonicClock()  // it sleeps in real time, so it waits on the real clock
        let deadline = clock.now + wait
        while true {
            do throws(ClusterError) {
                let connection = try RedisConnection(host: address.host, port: address.port, database: address.database, timeout: 1)
                guard case .integer(let range) = try connection.command(["INCR", ClusterKeys.clientRanges]) else {
                    throw ClusterError("INCR \(ClusterKeys.clientRanges) did not answer a number")
                }
                return (range % 9_000) * 1_000_000_000 + 1
            } catch {
                guard clock.now < deadline else { throw ClusterError("\(error.message) (tried for \(Int(wait)) s)") }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }
}

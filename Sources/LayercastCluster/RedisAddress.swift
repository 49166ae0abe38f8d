/// Where the cluster's Redis is: `redis://HOST:PORT[/DB]` (`--cluster`, `LAYERCAST_CLUSTER`).
public struct RedisAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int

    /// Parses the URL; throws naming what is wrong. The port defaults to 6379, the database to 0.
    public init(_ url: String) throws(ClusterError) {
        guard url.hasPrefix("redis://") else { throw ClusterError("the cluster address must be redis://HOST:PORT[/DB], not \(url.prefix(64))") }
        var rest = Substring(url.dropFirst("redis://".count))
        database = 0
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            guard db.isEmpty || (Int(db).map { (0...15).contains($0) } ?? false) else {
                throw ClusterError("the Redis database must be a number 0…15, not \(db.prefix(16))")
            }
            database = Int(db) ?? 0
            rest = rest[..<slash]
        }
        guard !rest.contains("@") else { throw ClusterError("credentials in the cluster address are not supported") }
        if rest.hasPrefix("[") {  // [v6 address]:port
            guard let close = rest.firstIndex(of: "]") else { throw ClusterError("unclosed [ in the cluster address") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            port = 6379
            if rest.hasPrefix(":") { port = try Self.port(rest.dropFirst()) }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            port = try Self.port(rest[rest.index(after: colon)...])
        } else {
            host = String(rest)
            port = 6379
        }
        guard !host.isEmpty else { throw ClusterError("the cluster address names no host") }
    }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "redis://\(shown):\(port)" + (database == 0 ? "" : "/\(database)")
    }

    private static func port(_ text: Substring) throws(ClusterError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else { throw ClusterError("the Redis port must be 1…65535, not \(text.prefix(16))") }
        return port
    }
}

/// The server a load test addresses: `ws://HOST:PORT` (or `http://`, the page's URL) on this
/// machine, or on a host the user named. `wss` is not supported.
public struct LoadTarget: Sendable, Equatable {
    public var host: String
    public var port: Int

    /// Parses `url`; refuses a host that is not loopback (`localhost`, `127.x.x.x`, `::1`) unless
    /// it is exactly one of `allowedRemote`. A path is ignored (the tool always uses `/ws`).
    public init(url: String, allowedRemote: [String] = []) throws(LoadError) {
        let schemes = ["ws://": 80, "http://": 80]
        guard let (scheme, defaultPort) = schemes.first(where: { url.lowercased().hasPrefix($0.key) }) else {
            throw LoadError("--url must start with ws:// or http:// (got \(url.debugDescription))")
        }
        var rest = Substring(url.dropFirst(scheme.count))
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) { rest = rest[..<slash] }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw LoadError("--url has an unclosed [ in its host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw LoadError("--url: expected :PORT after ]") }
                portText = after.dropFirst()
            }
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw LoadError("--url: write an IPv6 host in brackets, e.g. ws://[::1]:8080") }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        guard !host.isEmpty, !host.contains("@") else { throw LoadError("--url has no host") }
        let port = portText.map { Int($0) } ?? defaultPort
        guard let port, (1...65535).contains(port) else { throw LoadError("--url port must be 1…65535") }
        self.host = String(host)
        self.port = port
        guard Self.isLoopback(self.host) || allowedRemote.contains(self.host) else {
            throw LoadError("refusing to load \(self.host): only loopback addresses (localhost, 127.0.0.0/8, ::1) unless --allow-remote \(self.host) names it")
        }
    }

    /// `localhost`, an IPv4 address in 127.0.0.0/8 or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower == "::1" || lower == "0:0:0:0:0:0:0:1" { return true }
        let octets = lower.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) }) else { return false }
        let numbers = octets.compactMap { UInt8($0) }
        return numbers.count == 4 && numbers[0] == 127
    }

    /// The `Host` header: `host:port`, IPv6 in brackets.
    var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

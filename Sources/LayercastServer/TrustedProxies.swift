import Foundation

/// The networks of `--trust-proxy`: a connection from one of them is a proxy, such as the
/// cluster's nginx, and the client it speaks for is named in its `X-Forwarded-For`.
struct TrustedProxies: Sendable {
    /// An IPv4 or IPv6 network: its address bytes and prefix length.
    struct Network: Equatable, Sendable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for i in 0..<bytes.count {
                let bits = min(8, max(0, prefix - 8 * i))
                let mask: UInt8 = bits == 0 ? 0 : 0xFF << (8 - bits)
                if address[i] & mask != bytes[i] & mask { return false }
            }
            return true
        }
    }

    let networks: [Network]

    /// Parses `CIDR`s such as `127.0.0.1/32`, `10.0.0.0/8` or `::1/128` (a bare address is one
    /// address alone); throws the first malformed one.
    init(_ cidrs: [String]) throws(ServerError) {
        networks = try cidrs.map { text throws(ServerError) in
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.address(String(parts[0])) else { throw .configuration("--trust-proxy \(text) is not an address or CIDR") }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else {
                throw .configuration("--trust-proxy \(text): the prefix must be 0–\(bytes.count * 8)")
            }
            return Network(bytes: bytes, prefix: prefix)
        }
    }

    /// The address a client is counted under: the peer's, or, when the peer is a trusted proxy
    /// and sent `X-Forwarded-For`, the rightmost address in it that is not a trusted proxy (the
    /// leftmost when all are). Addresses are written back in their canonical form; IPv4-mapped
    /// IPv6 addresses as IPv4.
    func clientAddress(peer: String, forwardedFor: String?) -> String {
        guard let peerBytes = Self.address(peer) else { return peer }
        var client = peerBytes
        if isTrusted(peerBytes), let forwardedFor {
            let hops = forwardedFor.split(separator: ",").compactMap { Self.address($0.trimmingCharacters(in: .whitespaces)) }
            if let first = hops.first { client = hops.last(where: { !isTrusted($0) }) ?? first }
        }
        return Self.text(client)
    }

    private func isTrusted(_ address: [UInt8]) -> Bool { networks.contains { $0.contains(address) } }

    /// The 4 or 16 bytes of an address literal (IPv4-mapped IPv6 as IPv4); nil when it is not one.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        return bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] ? Array(bytes.suffix(4)) : bytes
    }

    static func text(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(nulTerminated: buffer)
    }
}

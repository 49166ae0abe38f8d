import CLibWebSockets
import Foundation

/// The listening socket of `serve --workers`, which several processes share (`SO_REUSEPORT`):
/// the kernel gives each new connection to one of them. It is made here because Debian's lws 4.1
/// sets SO_REUSEPORT only for a context of several service threads; lws polls it as a raw
/// descriptor and is handed each connection it accepts, as if lws had accepted it.
final class SharedListener {
    let descriptor: Int32
    /// The port bound (the chosen one when asked for 0).
    let port: Int

    /// Binds `host:port` (an IPv4 or IPv6 address) with SO_REUSEPORT and listens.
    init(host: String, port: Int) throws(ServerError) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isV6 = host.contains(":")
        if isV6 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else { throw .listen("\(host) is not an IPv6 address") }
        } else {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host, &v4.sin_addr) == 1 else { throw .listen("\(host) is not an IPv4 address") }
        }
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .listen("cannot make a socket (errno \(errno))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = isV6
            ? withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
            : withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 1024) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .listen("cannot listen on \(host):\(port) with SO_REUSEPORT: \(reason)")
        }
        var storage = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        // sin_port and sin6_port sit at the same offset.
        self.port = Int(UInt16(bigEndian: storage.sin6_port))
        descriptor = fd
    }

    /// Accepts every waiting connection and hands each to lws as a new HTTP connection of `vhost`.
    func acceptAll(into vhost: OpaquePointer) {
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }  // EAGAIN: none left (or a transient error)
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = lws_adopt_socket_vhost(vhost, connection)  // closes it on failure
        }
    }
}

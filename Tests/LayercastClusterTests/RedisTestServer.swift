import Foundation
@testable import LayercastCluster

/// A real redis-server on a free port of 127.0.0.1, without persistence, for one test; stopped
/// (SIGTERM, then SIGKILL) when dropped.
final class RedisTestServer {
    let port: Int
    private let process = Process()
    private let directory: String

    /// Starts it on `port`, or on a free one.
    init(port: Int? = nil) throws {
        self.port = try port ?? Self.freePort()
        directory = NSTemporaryDirectory() + "layercast-redis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard let binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first(where: FileManager.default.isExecutableFile) else {
            throw ClusterError("redis-server is not installed (scripts/install-deps.sh installs it)")
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", String(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {  // at most 5 s
            if let connection = try? RedisConnection(host: "127.0.0.1", port: self.port, database: 0, timeout: 0.5),
               (try? connection.command(["PING"])) == .status("PONG") { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw ClusterError("redis-server did not answer on port \(self.port)")
    }

    deinit {
        resume()
        process.terminate()
        for _ in 0..<40 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the server answering (SIGSTOP: its sockets stay open, nothing is read), or lets it
    /// answer again (SIGCONT).
    func pause() { kill(process.processIdentifier, SIGSTOP) }
    func resume() { kill(process.processIdentifier, SIGCONT) }

    var address: RedisAddress { try! RedisAddress("redis://127.0.0.1:\(port)") }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ClusterError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

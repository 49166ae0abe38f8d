import Foundation
import Testing
@testable import LayercastLedger

/// One real PostgreSQL server for this test process, started on first use by
/// scripts/test-postgres.sh (initdb in a temporary directory, a non-root user, a free port of
/// 127.0.0.1) and stopped when the process exits (by the script's watcher should it crash). Each
/// test gets a database of its own.
final class PostgresTestServer: Sendable {
    /// The server's `postgres` database, as the superuser `postgres`.
    let url: String
    let directory: String

    private static let started: Result<PostgresTestServer, StartFailure> = start()
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test-postgres.sh").path

    private init(url: String, directory: String) {
        self.url = url
        self.directory = directory
    }

    /// The running server. Without PostgreSQL installed the calling test is cancelled (shown as
    /// skipped), unless LAYERCAST_REQUIRE_POSTGRES is set (CI sets it): then it fails.
    static func shared() throws -> PostgresTestServer {
        switch started {
        case .success(let server):
            return server
        case .failure(let failure):
            if failure.notInstalled, ProcessInfo.processInfo.environment["LAYERCAST_REQUIRE_POSTGRES"] == nil {
                try Test.cancel("PostgreSQL is not installed: \(failure.message)")
            }
            throw failure
        }
    }

    /// A new, empty database on the server; returns its URL.
    func newDatabase() throws -> String {
        let name = "ledger_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(url: url).execute("CREATE DATABASE \(name)")
        return url[...url.lastIndex(of: "/")!] + name
    }

    struct StartFailure: Error, CustomStringConvertible {
        let notInstalled: Bool
        let message: String
        var description: String { message }
    }

    private static func start() -> Result<PostgresTestServer, StartFailure> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layercast-pg-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        } catch {
            return .failure(StartFailure(notInstalled: false, message: "cannot create \(directory): \(error)"))
        }
        let (status, output) = run(["start", directory, "\(getpid())"])
        guard status == 0, let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
            try? FileManager.default.removeItem(atPath: directory)
            return .failure(StartFailure(notInstalled: status == 3, message: "scripts/test-postgres.sh start exited \(status): \(output)"))
        }
        let server = PostgresTestServer(url: url, directory: directory)
        atexit { PostgresTestServer.stop() }
        return .success(server)
    }

    /// Stops the server and removes its directory (at exit).
    private static func stop() {
        if case .success(let server) = started { _ = run(["stop", server.directory]) }
    }

    /// Runs the script with `arguments` (posix_spawn and waitpid: Foundation's Process can hang
    /// waiting for its child inside the test runner); returns its exit status and its output.
    private static func run(_ arguments: [String]) -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("layercast-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["/bin/bash", script] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ)
        guard spawned == 0 else { return (127, "cannot run \(script): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS are macros: exited normally when the low 7 bits are 0.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

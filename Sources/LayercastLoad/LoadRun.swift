import LayercastPlatform
import CLibWebSockets
import Dispatch
import Foundation

/// A whole load test: the clients on their threads, the progress line once a second, the
/// server's CPU and memory, and the report at the end.
public final class LoadRun {
    public let configuration: LoadConfiguration
    public let objectives: ServiceLevelObjectives
    /// The server process to measure, when it runs on this machine.
    public let serverPID: Int32?

    public init(configuration: LoadConfiguration, objectives: ServiceLevelObjectives = .init(), serverPID: Int32? = nil) {
        self.configuration = configuration
        self.objectives = objectives
        self.serverPID = serverPID
    }

    /// Runs for `duration` seconds (plus at most `ClientLoop.closeGrace` to close), calling
    /// `progress` with a progress line once a second; throws when it cannot start.
    public func run(progress: (String) -> Void) throws(LoadError) -> LoadReport {
        if let problem = configuration.validationError() { throw LoadError(problem) }
        let startServer = try serverPID.map { pid throws(LoadError) in
            guard let sample = ServerProcessSample.read(pid: pid) else { throw LoadError("cannot read /proc/\(pid): no such process here") }
            return sample
        }
        Self.raiseFileLimit(to: configuration.clients + 64)
        lws_set_log_level(Int32(LLL_ERR), nil)

        let tokens = try signTokens()
        let start = monotonicSeconds() + 0.05
        let deadline = start + configuration.duration
        let threads = min(configuration.threads, configuration.clients)
        var loops: [ClientLoop] = []
        for thread in 0..<threads {
            let indices = Array(stride(from: thread, to: configuration.clients, by: threads))
            let clients = indices.map {
                SimulatedClient(index: $0, startAt: start + Double($0) / configuration.rampPerSecond, configuration: configuration)
            }
            let paths = indices.map { configuration.path(token: tokens?[$0]) }
            loops.append(try ClientLoop(clients: clients, paths: paths, configuration: configuration, deadline: deadline))
        }

        let group = DispatchGroup()
        for loop in loops {
            group.enter()
            let thread = Thread {
                loop.run()
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        var nextLine = start + 1
        while group.wait(timeout: .now() + max(0, nextLine - monotonicSeconds())) == .timedOut {
            if nextLine <= deadline { progress(progressLine(loops, elapsed: nextLine - start)) }  // none while closing
            nextLine += 1
        }

        var stats = LoadStats()
        for loop in loops { loop.measurements.withLock { stats.merge($0.stats) } }
        var usage: LoadReport.ServerUsage?
        if let serverPID, let startServer, let end = ServerProcessSample.read(pid: serverPID) {
            usage = .init(pid: serverPID, cpuSeconds: end.cpuSeconds - startServer.cpuSeconds, peakResidentBytes: end.peakResidentBytes)
        }
        let target = configuration.target
        return LoadReport(configuration: configuration, url: "ws://\(target.hostHeader)/ws", seconds: configuration.duration,
                          stats: stats, server: usage, checks: objectives.checks(stats))
    }

    /// The line for the second that just ended; takes (and clears) each thread's window.
    private func progressLine(_ loops: [ClientLoop], elapsed: Double) -> String {
        var open = 0, errors = 0
        var window = ProgressWindow()
        for loop in loops {
            loop.measurements.withLock { shared in
                open += shared.stats.open
                errors += shared.stats.errorCount
                window.merge(shared.window)
                shared.window = ProgressWindow()
            }
        }
        return ProgressLine.text(elapsed: elapsed, connected: open, clients: configuration.clients, framesPerSecond: Double(window.frames),
                                 p99FrameAge: window.frameAge.count > 0 ? window.frameAge.summary.p99 : nil, errors: errors)
    }

    /// Every player's token when players are signed (valid an hour past the run's end).
    private func signTokens() throws(LoadError) -> [String]? {
        guard configuration.role == .player, let secret = configuration.tokenSecret else { return nil }
        let expires = Date().addingTimeInterval(configuration.duration + 3600)
        var tokens: [String] = []
        tokens.reserveCapacity(configuration.clients)
        for index in 0..<configuration.clients {
            do {
                tokens.append(try PlayerTokens.token(index: index, secret: secret, expires: expires))
            } catch {
                throw LoadError("cannot sign player tokens: \(error)")
            }
        }
        return tokens
    }

    /// Raises the soft limit of open files toward `count` (up to the hard limit): each client is a socket.
    private static func raiseFileLimit(to count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

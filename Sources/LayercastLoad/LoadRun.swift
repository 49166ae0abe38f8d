import CLibWebSockets
import Dispatch
import Foundation

/// A whole load test: the clients on their threads (or in worker processes), the progress line
/// and the timeline's point once a second, the server's CPU and memory, and the report at the end.
public final class LoadRun {
    public let configuration: LoadConfiguration
    public let objectives: ServiceLevelObjectives
    /// The server process to measure, when it runs on this machine.
    public let serverPID: Int32?
    /// What runs: the scenario, or the flags as one population.
    private let plan: Scenario

    public init(configuration: LoadConfiguration, objectives: ServiceLevelObjectives = .init(), serverPID: Int32? = nil) {
        self.configuration = configuration
        self.objectives = objectives
        self.serverPID = serverPID
        plan = configuration.plan
    }

    /// Runs every client in this process for `duration` seconds (plus at most
    /// `ClientLoop.closeGrace` to close), calling `progress` with a progress line once a second;
    /// throws when it cannot start.
    public func run(progress: (String) -> Void) throws(LoadError) -> LoadReport {
        try report(startingIn: 0.05, progress: progress) { start, second throws(LoadError) in
            try measure(indices: Array(0..<plan.clients), start: start, second: second)
        }
    }

    /// Runs the clients in `configuration.workers` processes, `executable` with `arguments(worker,
    /// start)` each (a worker runs `runWorker`), and reports them as one run: counts added,
    /// histograms merged. Throws when a worker cannot start or ends without its measurements.
    public func run(workers executable: URL, arguments: (Int, Double) -> [String], progress: (String) -> Void) throws(LoadError) -> LoadReport {
        try report(startingIn: WorkerPool.startDelay, progress: progress) { start, second throws(LoadError) in
            let pool = WorkerPool(executable: executable, arguments: (0..<configuration.workers).map { arguments($0, start) })
            return try pool.run(start: start, deadline: start + configuration.duration, populations: plan.populations.count, second: second)
        }
    }

    /// Worker `worker`'s share of the clients (`ClientSplit` over `configuration.workers`), from
    /// monotonic `start`: a `.progress` message through `output` once a second, then `.result`.
    public func runWorker(_ worker: Int, start: Double, output: (WorkerMessage) -> Void) throws(LoadError) {
        if let problem = configuration.validationError() { throw LoadError(problem) }
        let indices = ClientSplit(clients: plan.clients, parts: configuration.workers).indices(of: worker)
        output(.result(try measure(indices: indices, start: start) { sample, _ in output(.progress(sample)) }))
    }

    /// Checks the configuration, measures the server around `body` (which runs the clients from
    /// the start it is given, `delay` seconds from now) and makes the report.
    private func report(startingIn delay: Double, progress: (String) -> Void,
                        _ body: (Double, (ProgressSample, Double) -> Void) throws(LoadError) -> [LoadStats]) throws(LoadError) -> LoadReport {
        if let problem = configuration.validationError() { throw LoadError(problem) }
        let startServer = try serverPID.map { pid throws(LoadError) in
            guard let sample = ServerProcessSample.read(pid: pid) else { throw LoadError("cannot read /proc/\(pid): no such process here") }
            return sample
        }
        let start = monotonicClock.now + delay, startedAt = Date().timeIntervalSince1970 + delay
        var timeline = LoadTimeline()
        let populations = try withoutActuallyEscaping(progress) { progress throws(LoadError) in
            try body(start) { sample, elapsed in
                timeline.add(sample, at: elapsed)
                progress(sample.line(elapsed: elapsed, clients: plan.clients))
            }
        }
        var stats = LoadStats()
        for population in populations { stats.merge(population) }
        var usage: LoadReport.ServerUsage?
        if let serverPID, let startServer, let end = ServerProcessSample.read(pid: serverPID) {
            usage = .init(pid: serverPID, cpuSeconds: end.cpuSeconds - startServer.cpuSeconds, peakResidentBytes: end.peakResidentBytes)
        }
        var checks = objectives.checks(stats)
        if let scenario = configuration.scenario {
            checks += scenario.thresholds.checks(stats, scope: "thresholds")
            for (index, population) in scenario.populations.enumerated() {
                checks += population.thresholds.checks(populations[index], scope: population.name)
            }
        }
        let url = configuration.targets.map { "ws://\($0.hostHeader)/ws" }.joined(separator: ", ")
        var report = LoadReport(configuration: configuration, url: url, seconds: configuration.duration,
                                stats: stats, server: usage, checks: checks)
        report.populations = populations
        report.startedAt = startedAt
        report.timeline = timeline
        return report
    }

    /// Runs clients `indices` on their threads from monotonic `start` to the deadline, calling
    /// `second` with each second's sample (none while closing); returns what they measured.
    private func measure(indices: [Int], start: Double, second: (ProgressSample, Double) -> Void) throws(LoadError) -> [LoadStats] {
        Self.raiseFileLimit(to: indices.count + 64)
        lws_set_log_level(Int32(LLL_ERR), nil)
        let plan = plan
        let tokens = try signTokens(indices, plan: plan)
        let deadline = start + configuration.duration
        let split = ClientSplit(clients: indices.count, parts: min(configuration.threads, indices.count))
        var loops: [ClientLoop] = []
        for thread in 0..<split.parts {
            let mine = split.indices(of: thread)
            let clients = mine.map {
                let (population, slot) = plan.slot(ofClient: indices[$0])
                let behaviour = plan.populations[population]
                return SimulatedClient(index: indices[$0], population: population, slot: slot, behaviour: behaviour,
                                       pingInterval: behaviour.pingsPerSecond.map { 1 / $0 } ?? configuration.pingInterval)
            }
            let paths = zip(mine, clients).map { position, client in
                configuration.path(role: client.behaviour.role, token: tokens.flatMap { $0[position].isEmpty ? nil : $0[position] })
            }
            loops.append(try ClientLoop(clients: clients, paths: paths, targets: configuration.targets, scenario: plan,
                                        configuration: configuration, start: start, deadline: deadline))
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
        while group.wait(timeout: .now() + max(0, nextLine - monotonicClock.now)) == .timedOut {
            if nextLine <= deadline { second(sample(loops), nextLine - start) }
            nextLine += 1
        }
        var stats = Array(repeating: LoadStats(), count: plan.populations.count)
        for loop in loops {
            loop.measurements.withLock { for (index, population) in $0.populations.enumerated() { stats[index].merge(population) } }
        }
        return stats
    }

    /// The second that just ended; takes (and clears) each thread's window.
    private func sample(_ loops: [ClientLoop]) -> ProgressSample {
        var sample = ProgressSample()
        for loop in loops {
            loop.measurements.withLock { shared in
                sample.merge(ProgressSample(open: shared.open, errors: shared.errorCount, reconnects: shared.reconnects, window: shared.window))
                shared.window = ProgressWindow()
            }
        }
        return sample
    }

    /// The tokens of clients `indices`, in their order, when players are signed (valid an hour
    /// past the run's end); spectators' are never sent.
    private func signTokens(_ indices: [Int], plan: Scenario) throws(LoadError) -> [String]? {
        guard plan.populations.contains(where: { $0.role == .player }), let secret = configuration.tokenSecret else { return nil }
        let expires = Date().addingTimeInterval(configuration.duration + 3600)
        var tokens: [String] = []
        tokens.reserveCapacity(indices.count)
        for index in indices {
            guard plan.populations[plan.slot(ofClient: index).population].role == .player else {
                tokens.append("")
                continue
            }
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

import Foundation

/// `layercast serve --workers N`: N processes of this program on one port (`SO_REUSEPORT`),
/// each a node of the cluster, `<node>-1` … `<node>-N`. The kernel spreads new connections over
/// the listening sockets by a hash of their addresses and ports (docs/cluster.md). The parent
/// passes SIGINT and SIGTERM on to every worker and ends when they all have; a worker that
/// exits on its own ends the others.
enum WorkerProcesses {
    /// The environment variable that tells a worker it shares its port.
    static let marker = "LAYERCAST_WORKER"

    static func run(count: Int, node: String) throws -> Never {
        let arguments = workerArguments(Array(CommandLine.arguments.dropFirst()))
        var workers: [Process] = []
        for index in 1...count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = arguments + ["--node-id", "\(node)-\(index)"]
            var environment = ProcessInfo.processInfo.environment
            environment[marker] = String(index)
            process.environment = environment
            try process.run()
            workers.append(process)
        }
        let pids = workers.map(\.processIdentifier)
        let stop: @Sendable () -> Void = {
            for pid in pids { kill(pid, SIGTERM) }
        }
        Thread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGINT)
            sigaddset(&set, SIGTERM)
            var number: Int32 = 0
            sigwait(&set, &number)
            stop()
        }.start()
        var status: Int32 = 0
        while workers.contains(where: \.isRunning) {
            if let ended = workers.first(where: { !$0.isRunning }) {
                status = max(status, ended.terminationStatus)
                stop()
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        for worker in workers { status = max(status, worker.terminationStatus) }
        exit(status)
    }

    /// `serve`'s arguments without `--workers` and `--node-id` (each worker gets its own id).
    static func workerArguments(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            if argument == "--workers" || argument == "--node-id" {
                skipNext = true
            } else if !argument.hasPrefix("--workers=") && !argument.hasPrefix("--node-id=") {
                kept.append(argument)
            }
        }
        return kept
    }
}

import Dispatch
import Foundation
import Synchronization

/// The parent's side of `--workers`: starts the worker processes, reads the `WorkerMessage`
/// lines of each one's standard output, adds their progress up once a second and their
/// measurements at the end (counts summed, histograms merged).
final class WorkerPool: Sendable {
    /// Seconds between starting the workers and their first connection: time to start a process.
    static let startDelay = 1.0

    private struct Collected {
        /// Each worker's newest sample (its open connections, errors and reconnects so far).
        var latest: [ProgressSample]
        /// The frames and ages of every worker since the last line.
        var window = ProgressWindow()
        var results: [[LoadStats]?]
    }

    private let executable: URL
    private let arguments: [[String]]
    private let collected: Mutex<Collected>

    /// One worker per element of `arguments`.
    init(executable: URL, arguments: [[String]]) {
        self.executable = executable
        self.arguments = arguments
        collected = Mutex(Collected(latest: Array(repeating: ProgressSample(), count: arguments.count),
                                    results: Array(repeating: nil, count: arguments.count)))
    }

    /// Starts the workers (whose clients start at monotonic `start`), calls `second` once a
    /// second until `deadline` with the workers' sample, and returns their measurements merged.
    func run(start: Double, deadline: Double, populations: Int, second: (ProgressSample, Double) -> Void) throws(LoadError) -> [LoadStats] {
        let group = DispatchGroup()
        var processes: [Process] = []
        for (worker, arguments) in arguments.enumerated() {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            let output = Pipe()
            process.standardOutput = output
            do {
                try process.run()
            } catch {
                processes.forEach { $0.terminate() }
                throw LoadError("cannot start worker \(worker): \(error)")
            }
            processes.append(process)
            group.enter()
            let reader = Thread { [self] in
                read(output.fileHandleForReading, of: worker)
                group.leave()
            }
            reader.start()
        }
        // Each worker writes its sample at the same whole second; a quarter second later all have arrived.
        var nextLine = start + 1
        while group.wait(timeout: .now() + max(0, nextLine + 0.25 - monotonicClock.now)) == .timedOut {
            if nextLine <= deadline { second(takeSample(), nextLine - start) }
            nextLine += 1
        }
        var stats = Array(repeating: LoadStats(), count: populations)
        for (worker, process) in processes.enumerated() {
            process.waitUntilExit()
            guard process.terminationStatus == 0, let result = collected.withLock({ $0.results[worker] }), result.count == populations else {
                throw LoadError("worker \(worker) ended (status \(process.terminationStatus)) without its measurements")
            }
            for (index, population) in result.enumerated() { stats[index].merge(population) }
        }
        return stats
    }

    /// Every worker's open connections, errors and reconnects, and the window since the last call.
    private func takeSample() -> ProgressSample {
        collected.withLock { collected in
            var sample = ProgressSample(window: collected.window)
            for latest in collected.latest {
                sample.open += latest.open
                sample.errors += latest.errors
                sample.reconnects += latest.reconnects
            }
            collected.window = ProgressWindow()
            return sample
        }
    }

    /// Reads worker `worker`'s lines until it closes its output.
    private func read(_ handle: FileHandle, of worker: Int) {
        let decoder = JSONDecoder()
        var buffer = Data()
        while case let data = handle.availableData, !data.isEmpty {
            buffer += data
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = buffer[(newline + 1)...]
                switch try? decoder.decode(WorkerMessage.self, from: line) {
                case .progress(let sample):
                    collected.withLock {
                        $0.latest[worker] = sample
                        $0.window.merge(sample.window)
                    }
                case .result(let stats):
                    collected.withLock { $0.results[worker] = stats }
                case nil:
                    break  // not a message: the worker's result check at the end tells
                }
            }
        }
    }
}

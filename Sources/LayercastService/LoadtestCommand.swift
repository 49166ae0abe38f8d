import ArgumentParser
import Foundation
import LayercastJSON
import LayercastLoad

/// `layercast loadtest`: scripted WebSocket clients against a server, a live progress line, and
/// a report that can gate a release (docs/loadtest.md).
struct LoadtestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadtest",
        abstract: "Load-test a server with scripted layercast.v1 clients and report frames, ages, taps and awards.",
        discussion: """
            Only loopback servers (localhost, 127.0.0.0/8, ::1) unless --allow-remote names the host exactly. \
            Exits 1 when an SLO flag or a scenario threshold is breached, 2 when no client connected. See docs/loadtest.md.
            """
    )

    @Option(help: ArgumentHelp("A campaign in a file (JSON or YAML): populations, stages, URLs and thresholds (docs/loadtest.md, \"Scenarios\"). Replaces --clients, --ramp, --duration, --role, --taps and --aim.", valueName: "file"))
    var scenario: String?

    @Option(help: "The server: ws://HOST:PORT or http://HOST:PORT (the path is ignored; clients join /ws).")
    var url = "ws://127.0.0.1:8080"

    @Option(help: "Scene id to join.")
    var scene = "radar"

    @Option(help: "Room name (1–32 of A–Z a–z 0–9 _ -).")
    var room = "loadtest"

    @Option(help: "Simulated clients (1–20000).")
    var clients = 10

    @Option(help: ArgumentHelp("Connections opened per second.", valueName: "N/s"))
    var ramp = 100.0

    @Option(help: "Seconds the run lasts, ramp included (at most 3600).")
    var duration = 10.0

    @Option(help: "What each client joins as: spectator or player.")
    var role = LoadConfiguration.Role.spectator

    @Option(help: ArgumentHelp("Taps per second of each player (0–20).", valueName: "N/s"))
    var taps = 0.0

    @Option(help: "Where players tap: random (anywhere in the scene) or aim (the centre of an unclaimed packet they see).")
    var aim = LoadConfiguration.AimMode.random

    @Option(help: ArgumentHelp("Sign each player a token (player loadtest-K) with this secret; without it players join anonymously.", valueName: "secret"))
    var tokenSecret: String?

    @Option(help: "Threads of each process, each with its own libwebsockets context (default: the number of cores, divided among the workers).")
    var threads: Int?

    @Option(help: "Loader processes (1–64): the clients are dealt to N copies of this command and one report merges theirs.")
    var workers = 1

    @Flag(help: "Pin worker K to the K-th CPU this command may run on (its affinity: under taskset, only those CPUs), in turn.")
    var pinWorkers = false

    /// A worker started by `--workers`: its index, its clients' start on the monotonic clock, and its CPU.
    @Option(help: .hidden)
    var worker: Int?
    @Option(help: .hidden)
    var workerStart: Double?
    @Option(name: .customLong("worker-cpu"), help: .hidden)
    var workerCPU: Int?

    @Option(help: ArgumentHelp("Write the whole report as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the report as one self-contained HTML page to this file: the final figures, the thresholds and the run's timeline as inline SVG.", valueName: "file"))
    var html: String?

    @Option(name: .customLong("mark-file"), help: ArgumentHelp("Marks to draw on --html's timeline, read when the run ends: one a line, SECONDS NAME (from the run's start) or @UNIXTIME NAME.", valueName: "file"))
    var markFile: String?

    @Option(name: .customLong("server-pid"), help: ArgumentHelp("Process id of the server, when it runs on this machine: report its CPU and peak RSS.", valueName: "pid"))
    var serverPID: Int32?

    @Option(help: ArgumentHelp("A non-loopback host the run may address, exactly as written in --url (repeatable).", valueName: "host"))
    var allowRemote: [String] = []

    @Option(name: .customLong("max-skip-ratio"), help: "Fail (exit 1) when the skipped-frame ratio is above this (0–1).")
    var maxSkipRatio: Double?

    @Option(name: .customLong("max-p99-frame-age-ms"), help: "Fail (exit 1) when the p99 frame age is above this many milliseconds.")
    var maxP99FrameAgeMs: Double?

    @Option(name: .customLong("max-p99-tap-ms"), help: "Fail (exit 1) when the p99 tap → result latency is above this many milliseconds.")
    var maxP99TapMs: Double?

    @Flag(help: "Offer permessage-deflate (RFC 7692) to the server; it is used when the server accepts it.")
    var permessageDeflate = false

    func validate() throws {
        _ = try loadConfiguration()
        if markFile != nil, html == nil { throw ValidationError("--mark-file needs --html: the marks are drawn on its timeline") }
        for (flag, value) in [("--max-skip-ratio", maxSkipRatio), ("--max-p99-frame-age-ms", maxP99FrameAgeMs), ("--max-p99-tap-ms", maxP99TapMs)] {
            if let value, !value.isFinite || value < 0 { throw ValidationError("\(flag) must be a finite number ≥ 0") }
        }
    }

    private func loadConfiguration() throws -> LoadConfiguration {
        let target: LoadTarget
        do {
            target = try LoadTarget(url: url, allowedRemote: allowRemote)
        } catch {
            throw ValidationError(error.description)
        }
        var configuration = LoadConfiguration(target: target)
        configuration.scene = scene
        configuration.room = room
        configuration.clients = clients
        configuration.rampPerSecond = ramp
        configuration.duration = duration
        configuration.role = role
        configuration.tapsPerSecond = taps
        configuration.aim = aim
        if let scenario {
            let replaced = ["--clients", "--ramp", "--duration", "--role", "--taps", "--aim"]
            if let flag = CommandLine.arguments.first(where: { argument in replaced.contains { argument == $0 || argument.hasPrefix($0 + "=") } }) {
                throw ValidationError("\(flag.split(separator: "=")[0]) cannot be given with --scenario: the scenario file says who joins, how many and how long")
            }
            let campaign: Scenario
            do {
                campaign = try ScenarioParser.load(path: scenario, allowedRemote: allowRemote)
            } catch {
                throw ValidationError("scenario \(error.description)")
            }
            configuration.scenario = campaign
            configuration.scenarioPath = scenario
            configuration.clients = campaign.clients
            configuration.duration = campaign.duration
            configuration.rampPerSecond = campaign.ramp
            configuration.scene = campaign.scene ?? scene
            configuration.room = campaign.room ?? room
        }
        configuration.tokenSecret = tokenSecret
        configuration.threads = threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, workers))
        configuration.workers = workers
        configuration.permessageDeflate = permessageDeflate
        if let problem = configuration.validationError() { throw ValidationError(problem) }
        return configuration
    }

    func run() throws {
        let objectives = ServiceLevelObjectives(maxSkipRatio: maxSkipRatio, maxP99FrameAgeMs: maxP99FrameAgeMs, maxP99TapMs: maxP99TapMs)
        let configuration = try loadConfiguration()
        let loadRun = LoadRun(configuration: configuration, objectives: objectives, serverPID: serverPID)
        if let worker { return try runWorker(worker, of: loadRun) }
        let terminal = isatty(STDERR_FILENO) != 0
        let report: LoadReport
        do {
            let progress = { (line: String) in
                FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
            }
            if workers > 1 {
                let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                let cpus = pinWorkers ? CPUAffinity.allowed() : []
                report = try loadRun.run(workers: executable, arguments: { worker, start in
                    workerArguments(worker, start: start, configuration: loadRun.configuration, cpu: CPUAffinity.cpu(forWorker: worker, allowed: cpus))
                }, progress: progress)
            } else {
                report = try loadRun.run(progress: progress)
            }
        } catch {
            FileHandle.standardError.write(Data("layercast loadtest: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        print(report.text)
        if let json {
            do {
                try Data((report.json.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: json))
            } catch {
                FileHandle.standardError.write(Data("layercast loadtest: cannot write \(json): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        if let html { try writeHTML(report, to: html) }
        guard report.stats.connected > 0 else {
            FileHandle.standardError.write(Data("layercast loadtest: no client connected to \(report.url)\n".utf8))
            throw ExitCode(2)
        }
        let breached = report.checks.filter(\.breached)
        if !breached.isEmpty {
            for check in breached { FileHandle.standardError.write(Data("layercast loadtest: SLO breached: \(check.text)\n".utf8)) }
            throw ExitCode(1)
        }
    }

    /// Writes `report`'s page to `path`, with the marks of `--mark-file`; exits 2 when either fails.
    private func writeHTML(_ report: LoadReport, to path: String) throws {
        var report = report
        do {
            if let markFile {
                for mark in try MarkFile.load(path: markFile, startedAt: report.startedAt) { report.timeline.mark(mark.name, at: mark.seconds) }
            }
        } catch {
            FileHandle.standardError.write(Data("layercast loadtest: \(error)\n".utf8))
            throw ExitCode(2)
        }
        do {
            try Data(HTMLReport.page(report).utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            FileHandle.standardError.write(Data("layercast loadtest: cannot write \(path): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// A worker's life: pinned when asked, its share of the clients run from the parent's start,
    /// and each `WorkerMessage` written as a line of JSON to standard output (for the parent only).
    private func runWorker(_ worker: Int, of loadRun: LoadRun) throws {
        guard let workerStart else { throw ValidationError("--worker needs --worker-start") }
        if let workerCPU, !CPUAffinity.pin(to: workerCPU) {
            FileHandle.standardError.write(Data("layercast loadtest: worker \(worker) cannot be pinned to CPU \(workerCPU)\n".utf8))
            throw ExitCode(2)
        }
        let encoder = JSONEncoder()
        do {
            try loadRun.runWorker(worker, start: workerStart) { message in
                guard let line = try? encoder.encode(message) else { return }
                FileHandle.standardOutput.write(line + Data("\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("layercast loadtest: worker \(worker): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// The command line of worker `worker`: this run's flags (the report's and the SLOs' are the
    /// parent's), its index, the start and its CPU.
    private func workerArguments(_ worker: Int, start: Double, configuration: LoadConfiguration, cpu: Int?) -> [String] {
        var arguments = ["loadtest", "--url", url, "--scene", scene, "--room", room]
        if let scenario {
            arguments += ["--scenario", scenario]
        } else {
            arguments += ["--clients", String(clients), "--ramp", String(ramp), "--duration", String(duration), "--role", role.rawValue,
                          "--taps", String(taps), "--aim", aim.rawValue]
        }
        arguments += ["--threads", String(configuration.threads), "--workers", String(workers),
                      "--worker", String(worker), "--worker-start", String(start)]
        arguments += allowRemote.flatMap { ["--allow-remote", $0] }
        if let tokenSecret { arguments += ["--token-secret", tokenSecret] }
        if permessageDeflate { arguments.append("--permessage-deflate") }
        if let cpu { arguments += ["--worker-cpu", String(cpu)] }
        return arguments
    }
}

extension LoadConfiguration.Role: ExpressibleByArgument {}
extension LoadConfiguration.AimMode: ExpressibleByArgument {}

import ArgumentParser
import Foundation
import LayercastAudit
import LayercastHub
import LayercastLedger
import LayercastSceneAPI

/// `layercast replay RAIN_ID…` or `--all` / `--room` / `--since` / `--until`: re-simulates recorded
/// rains (the rounds of any registered scene that records them, each by its scene's `RoundAuditor`)
/// and checks every award against the ledger; exits 1 when any disagrees, 2 when a round named by
/// id is unknown or still running, a round's scene is not registered or replays nothing, or the
/// ledger cannot be read.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-simulate recorded rains from their seeds and taps and check every award in the ledger.",
        discussion: """
            Name rains by id, or select them: --all, or any of --room, --since and --until (the \
            rains created in that room and time range). With more than one rain, a line of totals \
            follows; rains still running are listed but not replayed.
            """
    )

    @Argument(help: "Rain ids (GET /api/rains/{id}).")
    var rains: [Int64] = []

    @Flag(help: "Every rain in the ledger.")
    var all = false

    @Option(help: "Only the rains of this room.")
    var room: String?

    @Option(help: ArgumentHelp("Only rains created at or after this time: ISO 8601 (2026-02-16T20:00:00Z, or +08:00) or a date (UTC midnight).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only rains created before this time (as --since).", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Also write the report as JSON to this file (- for standard output, then instead of the lines).", valueName: "path"))
    var json: String?

    @OptionGroup var options: LedgerOptions

    private var selects: Bool { all || room != nil || since != nil || until != nil }

    func validate() throws {
        guard !rains.isEmpty || selects else { throw ValidationError("name rain ids, or select rains with --all, --room, --since or --until") }
        guard !(all && (room != nil || since != nil || until != nil)) else { throw ValidationError("--all selects every rain: leave out --room, --since and --until") }
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, Self.time(value) == nil {
                throw ValidationError("\(name): \(value.prefix(40).debugDescription) is not an ISO 8601 time (2026-02-16T20:00:00Z) or date (2026-02-16)")
            }
        }
    }

    /// Replays with the auditors of `scenes`, the scenes the binary registered.
    func run(scenes: SceneRegistry) throws {
        var audit = LedgerAudit()
        var problems: [String] = []
        let address: String
        do {
            let ledger = try options.location.open()
            address = ledger.address
            let filter = RoundFilter(room: room, createdFrom: since.flatMap(Self.time), createdBefore: until.flatMap(Self.time))
            let selected = selects ? try ledger.roundIDs(filter) : []
            for id in rains + selected.filter({ !rains.contains($0) }) {
                guard let record = try ledger.round(id: id) else {
                    problems.append("there is no rain \(id) in \(address)")
                    continue
                }
                if record.status == .running, rains.contains(id) {
                    problems.append("rain \(id) is still running; replay it once it has finished")
                    continue
                }
                guard let auditor = scenes.scene(id: record.scene)?.roundAuditor else {
                    problems.append("rain \(id) is a round of the scene \(record.scene.debugDescription), which "
                        + (scenes.scene(id: record.scene) == nil ? "this binary does not register" : "replays no rounds")
                        + "; not replayed")
                    continue
                }
                audit.add(record, auditor: auditor)
            }
        } catch {
            fail(["\(error)"])
        }
        if json != "-" {
            audit.entries.flatMap(\.lines).forEach { print($0) }
            if audit.entries.count > 1 || selects { print(audit.summary) }
        }
        if let json {
            let text = audit.report(ledger: address).serialized(pretty: true) + "\n"
            if json == "-" {
                print(text, terminator: "")
            } else if !FileManager.default.createFile(atPath: json, contents: Data(text.utf8)) {
                problems.append("cannot write the report to \(json)")
            }
        }
        if !problems.isEmpty { fail(problems) }
        if audit.disagreeing > 0 { throw ExitCode(1) }
    }

    /// An ISO 8601 time with a zone, or a date taken as UTC midnight; nil otherwise.
    static func time(_ text: String) -> Date? {
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        let withSeconds = ISO8601DateFormatter()
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return withSeconds.date(from: text) ?? withFraction.date(from: text) ?? (text.count == 10 ? dateOnly.date(from: text) : nil)
    }

    private func fail(_ messages: [String]) -> Never {
        for message in messages { FileHandle.standardError.write(Data("layercast replay: \(message)\n".utf8)) }
        Foundation.exit(2)
    }
}

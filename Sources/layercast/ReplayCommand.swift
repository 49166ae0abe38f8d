import ArgumentParser
import Foundation
import LayercastAudit
import LayercastLedger

/// `layercast replay RAIN_ID`: re-simulates a recorded rain and checks every award against the
/// ledger; exits 1 with the differences when they disagree.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-simulate a recorded rain from its seed and taps and check every award in the ledger."
    )

    @Argument(help: "The rain's id (GET /api/rains/{id}).")
    var rain: Int64

    @OptionGroup var options: LedgerOptions

    func run() throws {
        let record: RainRecord
        do {
            let opened = try options.location.open()
            guard let found = try opened.rain(id: rain) else { fail("there is no rain \(rain) in \(opened.address)") }
            record = found
        } catch {
            fail("\(error)")
        }
        guard record.status != .running else {
            fail("rain \(rain) is still running; replay it once it has finished")
        }
        let differences = RainAudit.differences(record)
        let awarded = record.awards.reduce(0) { $0 + $1.coins }
        if differences.isEmpty {
            print("rain \(rain) (\(record.status.rawValue), seed \(record.seed)): plan of \(record.prizes.count) prizes agrees; "
                + "\(record.awards.count) awards, \(awarded) coins, replayed identically")
        } else {
            print("rain \(rain): the replay disagrees with the ledger in \(differences.count) place(s):")
            differences.forEach { print("  \($0)") }
            throw ExitCode(1)
        }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("layercast replay: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

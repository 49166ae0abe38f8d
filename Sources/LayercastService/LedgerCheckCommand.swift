import ArgumentParser
import Foundation
import LayercastLedger

/// `layercast ledger check`: the checks `serve` makes at start plus the complete check (SQLite's
/// integrity_check; PostgreSQL's schema and the awards constraint). Exits 0 when the ledger is
/// sound, 1 when it is damaged, 2 when there is none or it cannot be read.
struct LedgerCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the ledger completely (safe while the server runs); exit 1 when it is damaged."
    )

    @OptionGroup var options: LedgerOptions

    func run() throws {
        do throws(LedgerError) {
            let location = try options.location
            if case .sqlite(let directory) = location {
                let path = (directory as NSString).appendingPathComponent("layercast.sqlite")
                guard FileManager.default.fileExists(atPath: path) else { fail("there is no ledger at \(path)", status: 2) }
            }
            let ledger = try location.open()
            try ledger.verify()
            let summary = try ledger.summary()
            print("\(ledger.address): ok (schema version \(summary.schemaVersion), \(summary.rounds) rains, "
                + "\(summary.awards) awards, \(summary.coins) coins)")
        } catch {
            fail(error.message, status: [.corrupt, .schema].contains(error.code) ? 1 : 2)
        }
    }

    private func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("layercast ledger check: \(message)\n".utf8))
        Foundation.exit(status)
    }
}

import ArgumentParser
import Foundation
import LayercastLedger

/// `layercast ledger backup PATH`: a consistent copy of the ledger, taken safely while the
/// server runs, checked before it is reported. Exits 2 when no sound copy was made.
struct LedgerBackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the ledger to PATH (a new file) while the server runs, and check the copy."
    )

    @Argument(help: "Where to write the copy; must not exist yet.")
    var destination: String

    @Option(help: "Directory of the ledger (layercast.sqlite).")
    var data = "data"

    func run() throws {
        let path = (data as NSString).appendingPathComponent("layercast.sqlite")
        guard FileManager.default.fileExists(atPath: path) else { fail("there is no ledger at \(path)") }
        do throws(LedgerError) {
            let summary = try Ledger(directory: data).backup(to: destination)
            print("backed up \(path) to \(destination): \(summary.rains) rains, \(summary.awards) awards, "
                + "\(summary.coins) coins; the copy passes integrity_check")
        } catch {
            fail(error.message)
        }
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("layercast ledger backup: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

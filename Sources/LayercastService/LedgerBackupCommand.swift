import ArgumentParser
import Foundation
import LayercastLedger

/// `layercast ledger backup PATH`: a consistent copy of the ledger, taken safely while the
/// server runs, checked before it is reported. Exits 2 when no sound copy was made. SQLite only:
/// a PostgreSQL ledger is backed up with PostgreSQL's own tools (pg_dump).
struct LedgerBackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the ledger to PATH (a new file) while the server runs, and check the copy."
    )

    @Argument(help: "Where to write the copy; must not exist yet.")
    var destination: String

    @OptionGroup var options: LedgerOptions

    func run() throws {
        let directory: String
        do throws(LedgerError) {
            guard case .sqlite(let sqliteDirectory) = try options.location else {
                fail("--ledger names a PostgreSQL ledger; back it up with pg_dump (docs/operations.md)")
            }
            directory = sqliteDirectory
        } catch {
            fail(error.message)
        }
        let path = (directory as NSString).appendingPathComponent("layercast.sqlite")
        guard FileManager.default.fileExists(atPath: path) else { fail("there is no ledger at \(path)") }
        do throws(LedgerError) {
            let summary = try SQLiteLedger(directory: directory).backup(to: destination)
            print("backed up \(path) to \(destination): \(summary.rounds) rains, \(summary.awards) awards, "
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

import ArgumentParser
import Foundation
import LayercastLedger

/// `--data` and `--ledger` of the commands that read a ledger: the same choice `serve` makes.
struct LedgerOptions: ParsableArguments {
    @Option(help: "Directory of the ledger (layercast.sqlite) when --ledger is not given.")
    var data = "data"

    @Option(help: ArgumentHelp("The ledger in PostgreSQL, postgres://USER@HOST:PORT/DB (or LAYERCAST_LEDGER); default: SQLite under --data.", valueName: "url"))
    var ledger: String?

    var location: LedgerLocation {
        get throws(LedgerError) { try Self.location(ledger: ledger, data: data) }
    }

    /// `ledger` (`--ledger`), else env LAYERCAST_LEDGER, else SQLite under `data`.
    static func location(ledger: String?, data: String) throws(LedgerError) -> LedgerLocation {
        try LedgerLocation(ledger ?? ProcessInfo.processInfo.environment["LAYERCAST_LEDGER"], dataDirectory: data)
    }

    /// Refuses `memory:`: a memory ledger lives inside its server, and no other process reads it.
    func validate() throws {
        let location: LedgerLocation
        do throws(LedgerError) {
            location = try self.location
        } catch {
            throw ValidationError("--ledger: \(error.message)")
        }
        guard location != .memory else {
            throw ValidationError("--ledger: memory: is no ledger to read: a memory ledger lives inside its `layercast serve` alone and is lost when it stops")
        }
    }
}

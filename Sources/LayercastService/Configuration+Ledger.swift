import LayercastHub
import LayercastLedger

extension Configuration {
    /// The award ledger's part of the configuration.
    struct Ledger: Sendable {
        /// Directory of the SQLite ledger (`layercast.sqlite`) and of `player-id.key`, created when missing.
        var directory = "data"
        /// The ledger's URL (`postgres://…` or `memory:`); nil: SQLite in `directory`.
        var url: String?
        /// Seconds a ledger call may take before it is answered `ledger_unavailable` (a tap, a
        /// round's start or end, a read; docs/reliability.md, "The ledger's deadline").
        var deadline = LedgerServices.defaultDeadline
        /// Ledger calls that may wait for the ledger's thread; more are refused at once.
        var queue = 256

        /// Where the ledger is: `url`, else SQLite in `directory`; throws for a malformed URL.
        var location: LedgerLocation {
            get throws(LedgerError) { try LedgerLocation(url, dataDirectory: directory) }
        }
    }
}

import ArgumentParser

/// `layercast ledger check|backup`: what an operator runs against the award ledger
/// (docs/operations.md).
struct LedgerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Check or back up the award ledger (layercast.sqlite, or PostgreSQL with --ledger).",
        subcommands: [LedgerCheckCommand.self, LedgerBackupCommand.self]
    )
}

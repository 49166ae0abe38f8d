import Foundation

// What an operator runs against a ledger: the complete check and the online backup
// (`layercast ledger check|backup`, docs/operations.md).
extension SQLiteLedger {
    /// SQLite's complete `integrity_check` and the schema check; throws `corrupt` naming what is wrong.
    public func verify() throws(LedgerError) {
        try SQLiteIntegrity.check(connection, path: path, thorough: true)
    }

    /// Counts of what the ledger holds.
    public func summary() throws(LedgerError) -> LedgerSummary {
        try connection.transaction(immediate: false) { () throws(LedgerError) in try Self.summary(of: connection) }
    }

    private static func summary(of connection: SQLiteConnection) throws(LedgerError) -> LedgerSummary {
        try summary(of: connection, schemaVersion: try connection.query("PRAGMA user_version") { $0.int(0) }.first ?? 0)
    }

    /// Writes a consistent copy of the ledger to `destination` (a new file) with SQLite's
    /// `VACUUM INTO`, which reads one snapshot and so is safe while a server writes; then opens
    /// the copy, checks it completely and returns what it holds.
    public func backup(to destination: String) throws(LedgerError) -> LedgerSummary {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw LedgerError(.invalid, "\(destination) already exists; a backup never overwrites a file")
        }
        do throws(LedgerError) {
            try connection.run("VACUUM INTO ?1", [.text(destination)])
        } catch {
            throw LedgerError(error.code, "back up \(path) to \(destination): \(error.message)")
        }
        try SQLiteIntegrity.checkFile(destination)
        let copy = try SQLiteConnection(path: destination)
        try SQLiteIntegrity.check(copy, path: destination, thorough: true)
        return try Self.summary(of: copy)
    }
}

import Foundation

/// The ledger in a PostgreSQL database, shared by every node of a cluster (`--ledger
/// postgres://USER@HOST:PORT/DB`).
///
/// Writes run at READ COMMITTED and lock the round row they depend on (an award shares it, ending
/// the round takes it), so no award lands in a round that has ended; reads run in one REPEATABLE READ
/// snapshot. A write returns once its COMMIT has returned with `synchronous_commit = on`. The
/// `awards_once` constraint, not any node's memory, keeps an item from being awarded twice.
/// Doubles are float8, read back bit for bit (-0.0 included); text cannot hold NUL. Its queries
/// are `SQLLedger`'s, in `PostgresDialect`.
public final class PostgresLedger: SQLLedger {
    public let address: String
    let connection: PostgresConnection

    /// Connects to `url` and creates or migrates the schema (PostgresSchema). Throws `open` when
    /// the server cannot be reached or refuses, `schema` for an unknown version or a database
    /// that is not a ledger, `corrupt` when the tables lack a column or the awards constraint.
    /// `address` is the URL without its password, for messages.
    public init(url: String, address: String) throws(LedgerError) {
        self.address = address
        do throws(LedgerError) {
            connection = try PostgresConnection(url: url)
        } catch {
            throw LedgerError(.open, "cannot connect: \(error.message)")
        }
        try PostgresSchema.prepare(connection, address: address)
    }

    /// The lock is a session-level advisory lock on `roleLockKey` (exclusive for a sole writer,
    /// shared for a cluster node), which PostgreSQL releases when the session ends, however the
    /// process ends; a session lost and re-established takes it again.
    public func lock(_ role: LedgerRole) throws(LedgerError) {
        let taken: Bool
        do throws(LedgerError) {
            taken = try connection.takeSessionLock(.init(key: Self.roleLockKey, shared: role == .clusterNode))
        } catch {
            throw LedgerError(error.code, "lock the ledger: \(error.message)")
        }
        guard taken else {
            throw LedgerError(.inUse, "another process serves the ledger \(address)\(role == .soleWriter ? "" : " as its sole writer")")
        }
    }

    /// The advisory lock key of the role's lock: "Layerrol", apart from the schema's key.
    static let roleLockKey: Int64 = 0x4c61_7965_7272_6f6c

    /// The schema version, the columns and the awards constraint (`PostgresSchema.check`).
    public func verify() throws(LedgerError) {
        let found = try reading("read the schema version") { () throws(LedgerError) in try PostgresSchema.currentVersion(connection) }
        guard found == PostgresSchema.version else {
            throw LedgerError(.corrupt, "the ledger \(address) has schema version \(found.map { "\($0)" } ?? "none"), not \(PostgresSchema.version)")
        }
        try PostgresSchema.check(connection, address: address)
    }

    public func summary() throws(LedgerError) -> LedgerSummary {
        try reading("count what the ledger holds") { () throws(LedgerError) in
            try Self.summary(of: connection, schemaVersion: try PostgresSchema.currentVersion(connection) ?? 0)
        }
    }

    static let dialect: any SQLDialect = PostgresDialect()

    /// A write runs at READ COMMITTED and locks the round row it depends on (`SQLDialect.locking`);
    /// a read runs in one read-only snapshot.
    func transaction<T>(writing: Bool, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try connection.transaction(writing ? "BEGIN ISOLATION LEVEL READ COMMITTED" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }
}

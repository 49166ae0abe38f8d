import Foundation

/// The ledger in one SQLite file, `<directory>/layercast.sqlite`: the embedded default for one
/// process.
///
/// Every call runs in one transaction. A write that returns without throwing has committed
/// durably (WAL, synchronous=FULL): it survives a crash or SIGKILL of the process.
///
/// Doubles are stored bit for bit, except that -0.0 reads back as 0.0 (SQLite keeps integral
/// REALs as integers) and NaN is refused (SQLite would make it NULL). Its queries are
/// `SQLLedger`'s, in `SQLiteDialect`.
public final class SQLiteLedger: SQLLedger {
    /// The database file: `<directory>/layercast.sqlite`.
    public let path: String
    let connection: SQLiteConnection
    /// The open `<directory>/layercast.lock` whose flock holds this ledger's lock, or -1.
    private var lockFile: Int32 = -1

    public var address: String { path }

    /// The most memory SQLite's page cache may hold for the ledger, in KiB (`PRAGMA cache_size`
    /// −256). A tap's award touches a handful of pages (the awards tail, its unique index, the
    /// round's row and prize); SQLite's default of 2,000 KiB only made the heap grow with the file
    /// (docs/reliability.md, "The 60-minute soak").
    public static let pageCacheKiB = 256

    /// Opens the ledger in `directory`, creating the directory (and its parents) and the
    /// database when missing. Throws `open` when the file cannot be opened, `schema` when its
    /// schema version is unknown (newer) or it is some other database, `corrupt` when it is
    /// damaged (SQLiteIntegrity).
    public init(directory: String) throws(LedgerError) {
        path = directory.hasSuffix("/") ? directory + "layercast.sqlite" : directory + "/layercast.sqlite"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LedgerError(.open, "cannot create the ledger directory \(directory): \(error.localizedDescription)")
        }
        // Processes opening one directory at once (the nodes of a cluster on one machine) take
        // turns (a lock on the directory itself), so that none reads the file another is
        // creating as a truncated one.
        let lock = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        try SQLiteIntegrity.checkFile(path)
        do throws(LedgerError) {
            connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA busy_timeout = 5000; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -\(Self.pageCacheKiB)")
            let mode = try connection.query("PRAGMA journal_mode = WAL") { $0.text(0) }.first
            guard mode == "wal" else { throw LedgerError(.io, "journal_mode is \(mode ?? "unknown"), not wal") }
        } catch {
            throw LedgerError(.open, "cannot open the ledger \(path): \(error.message)")
        }
        try SQLiteSchema.prepare(connection, path: path)
        try SQLiteIntegrity.check(connection, path: path, thorough: false)
    }

    deinit { if lockFile >= 0 { close(lockFile) } }

    /// The lock is a flock on `<directory>/layercast.lock` (exclusive for a sole writer, shared
    /// for a cluster node), which the kernel releases when the process ends, however it ends.
    public func lock(_ role: LedgerRole) throws(LedgerError) {
        let lockPath = (path as NSString).deletingLastPathComponent + "/layercast.lock"
        let file = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw LedgerError(.open, "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        guard flock(file, (role == .soleWriter ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let reason = errno
            close(file)
            guard reason == EWOULDBLOCK else { throw LedgerError(.io, "cannot lock \(lockPath): \(String(cString: strerror(reason)))") }
            throw LedgerError(.inUse, "another process serves the ledger \(path)\(role == .soleWriter ? "" : " as its sole writer") (it holds \(lockPath))")
        }
        if lockFile >= 0 { close(lockFile) }
        lockFile = file
    }

    static let dialect: any SQLDialect = SQLiteDialect()

    /// A write takes the lock at BEGIN (IMMEDIATE), so a writer waits (busy_timeout) up front
    /// instead of failing half-way.
    func transaction<T>(writing: Bool, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try connection.transaction(immediate: writing, body)
    }
}

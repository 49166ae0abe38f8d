import CSQLite

/// One SQLite connection: the only code in the module that calls the C API. Statements are
/// prepared once per SQL text and reused; every failing return code becomes a `LedgerError`
/// carrying SQLite's message. Not thread-safe: use it from one thread at a time.
final class SQLiteConnection: SQLConnection {
    /// The current row of a statement; valid only inside the `query` callback that receives it.
    struct Row: SQLRow {
        fileprivate let statement: OpaquePointer

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        func optionalInt64(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : int64(column)
        }

        /// The column's UTF-8 bytes as a String (all of them, embedded NULs included).
        func text(_ column: Int32) -> String {
            guard let bytes = sqlite3_column_text(statement, column) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    private let db: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if missing) the database file at `path`, with extended result codes.
    init(path: String) throws(LedgerError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw LedgerError(.io, message)
        }
        db = handle
    }

    deinit {
        // finalize only repeats the statement's last step error, already reported by `query`;
        // close_v2 fails only for a handle that is not open.
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// Runs `sql`, one or more statements without parameters, ignoring any rows.
    func execute(_ sql: String) throws(LedgerError) {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code) }
    }

    /// Runs one statement with `parameters` (`?1`, `?2`, ... in order), returning each row as
    /// `read` makes it.
    func query<T>(_ sql: String, _ parameters: [SQLValue] = [], read: (Row) throws(LedgerError) -> T) throws(LedgerError) -> [T] {
        let statement = try prepared(sql)
        // Reset at once so no statement keeps a read snapshot open; its result repeats step's.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(parameters, to: statement)
        var rows: [T] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure(code) }
            rows.append(try read(Row(statement: statement)))
        }
    }

    /// Runs `body` in one transaction and commits it; when anything throws (the commit
    /// included), rolls back and rethrows. `immediate` takes the write lock at BEGIN, so a
    /// writer waits (busy_timeout) up front instead of failing half-way.
    func transaction<T>(immediate: Bool, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do throws(LedgerError) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // SQLite may already have rolled back (some I/O errors do); then autocommit is on.
            if sqlite3_get_autocommit(db) == 0 {
                let code = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                if code != SQLITE_OK {
                    throw LedgerError(error.code, "\(error.message); rollback failed too: \(failure(code).message)")
                }
            }
            throw error
        }
    }

    private func prepared(_ sql: String) throws(LedgerError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ values: [SQLValue], to statement: OpaquePointer) throws(LedgerError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer):
                code = sqlite3_bind_int64(statement, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(statement, index, real)
            case .text(let text):
                // An explicit byte count keeps embedded NULs; withCString never passes NULL, so
                // "" binds the empty string rather than SQL NULL.
                code = text.withCString { sqlite3_bind_text(statement, index, $0, Int32(text.utf8.count), layercast_sqlite_transient()) }
            case .integers:
                throw LedgerError(.invalid, "SQLite binds no array (parameter \(index))")
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    /// UNIQUE and PRIMARY KEY violations are `duplicate`, other constraints `invalid`, the rest
    /// `io`. (The extended codes are macros Swift cannot import: SQLITE_CONSTRAINT | n << 8.)
    private func failure(_ code: Int32) -> LedgerError {
        let message = String(cString: sqlite3_errmsg(db))
        let primaryKey = SQLITE_CONSTRAINT | 6 << 8
        let unique = SQLITE_CONSTRAINT | 8 << 8
        switch code {
        case primaryKey, unique: return LedgerError(.duplicate, message)
        case _ where code & 0xff == SQLITE_CONSTRAINT: return LedgerError(.invalid, message)
        default: return LedgerError(.io, message)
        }
    }
}

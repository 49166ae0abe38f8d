import CLibPQ
import Foundation

/// One PostgreSQL connection: the only code in the module that calls libpq. Statements go as
/// `PQexecParams` with text parameters (`$1`, `$2`, ... in order) and text results; every
/// failure becomes a `LedgerError` whose message ends with the SQLSTATE. The session runs with
/// `synchronous_commit = on`, so a COMMIT that returns is durable on the server. Not
/// thread-safe: use it from one thread at a time.
final class PostgresConnection: SQLConnection {
    /// One row of a result; valid only inside the `query` callback that receives it. A value
    /// that does not parse as the type asked for is an `io` error naming the column.
    struct Row: SQLRow {
        fileprivate let result: OpaquePointer
        fileprivate let index: Int32

        func isNull(_ column: Int32) -> Bool { PQgetisnull(result, index, column) != 0 }

        func text(_ column: Int32) -> String {
            guard let bytes = PQgetvalue(result, index, column) else { return "" }
            let count = Int(PQgetlength(result, index, column))
            return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
        }

        func int64(_ column: Int32) throws(LedgerError) -> Int64 {
            guard let value = Int64(text(column)) else { throw unreadable(column, "a bigint") }
            return value
        }

        func int(_ column: Int32) throws(LedgerError) -> Int { Int(try int64(column)) }

        func optionalInt64(_ column: Int32) throws(LedgerError) -> Int64? { isNull(column) ? nil : try int64(column) }

        /// float8 text as PostgreSQL prints it with extra_float_digits > 0: the shortest exact form.
        func double(_ column: Int32) throws(LedgerError) -> Double {
            switch text(column) {
            case "Infinity": return .infinity
            case "-Infinity": return -.infinity
            case let digits:
                guard let value = Double(digits) else { throw unreadable(column, "a float8") }
                return value
            }
        }

        private func unreadable(_ column: Int32, _ type: String) -> LedgerError {
            let name = PQfname(result, column).map { String(cString: $0) } ?? "column \(column)"
            return LedgerError(.io, "\(name) holds \(text(column).prefix(40).debugDescription), not \(type)")
        }
    }

    /// A session-level advisory lock: held until the session ends, taken again whenever the
    /// session is re-established.
    struct SessionLock {
        let key: Int64
        let shared: Bool
    }

    /// What every connection runs with unless its URL says otherwise: a lost server is noticed
    /// within seconds (TCP keepalives, `tcp_user_timeout` for unacknowledged data) and no
    /// statement runs longer than `statement_timeout` on the server.
    static let defaults: [(key: String, value: String)] = [
        ("application_name", "layercast"), ("connect_timeout", "5"),
        ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "10000"), ("options", "-c statement_timeout=10s"),
    ]

    /// Seconds between attempts to re-establish a lost session: doubled after each failure from
    /// the first, up to the last.
    static let reconnectBackoff = (first: 0.25, last: 5.0)

    private let connection: OpaquePointer
    /// When the next attempt to re-establish a lost session may be made, and the wait after it.
    private var nextReconnect = (at: 0.0, wait: reconnectBackoff.first)
    /// The lock this session holds (`takeSessionLock`), or nil.
    private var sessionLock: SessionLock?

    /// Connects to `url` (`postgres://` or `postgresql://`, libpq's URI syntax) and sets the
    /// session up. Throws `open` when the server cannot be reached or refuses.
    init(url: String) throws(LedgerError) {
        // Later keywords win: what the URL says overrides these defaults (docs/reliability.md).
        let keys = Self.defaults.map(\.key) + ["dbname"]
        let values = Self.defaults.map(\.value) + [url]
        let handle = withCStrings(keys) { keys in withCStrings(values) { values in PQconnectdbParams(keys, values, 1) } }
        guard let handle else { throw LedgerError(.open, "cannot allocate a libpq connection") }
        // From here on a throw runs deinit, which closes the handle.
        connection = handle
        guard PQstatus(connection) == CONNECTION_OK else { throw LedgerError(.open, Self.trimmed(PQerrorMessage(connection))) }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        do throws(LedgerError) {
            try setUpSession()
        } catch {
            throw LedgerError(.open, error.message)
        }
    }

    deinit { PQfinish(connection) }

    /// Why `url` is not a connection URI libpq accepts, or nil when it is (nothing is contacted).
    static func problem(with url: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            defer { PQfreemem(error) }
            return error.map { trimmed($0) } ?? "libpq cannot parse it"
        }
        PQconninfoFree(options)
        return nil
    }

    /// What every session of the ledger runs with: durable commits, UTF-8, float8 printed exactly,
    /// lock waits bounded like SQLite's busy_timeout.
    private func setUpSession() throws(LedgerError) {
        try execute("""
            SET synchronous_commit = on; SET client_encoding = 'UTF8'; SET extra_float_digits = 3;
            SET lock_timeout = '5s'; SET TIME ZONE 'UTC'
            """)
        if let sessionLock, try !tryLock(sessionLock) {
            throw LedgerError(.inUse, "the session was re-established, but another process now holds the ledger's lock")
        }
    }

    /// Takes `lock` without waiting and keeps it for the session (and the sessions after a
    /// reconnection); false when another session holds it in a mode that excludes it.
    func takeSessionLock(_ lock: SessionLock) throws(LedgerError) -> Bool {
        guard try tryLock(lock) else { return false }
        sessionLock = lock
        return true
    }

    private func tryLock(_ lock: SessionLock) throws(LedgerError) -> Bool {
        let function = lock.shared ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock"
        return try query("SELECT \(function)($1)", [.integer(lock.key)]) { $0.text(0) } == ["t"]
    }

    /// Runs `sql`, one or more statements without parameters, ignoring any rows.
    func execute(_ sql: String) throws(LedgerError) {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        _ = try check(result)
    }

    /// Runs one statement with `parameters`, returning each row as `read` makes it.
    func query<T>(
        _ sql: String, _ parameters: [SQLValue] = [], read: (Row) throws(LedgerError) -> T
    ) throws(LedgerError) -> [T] {
        let texts = try parameters.map { (value) throws(LedgerError) -> String in try Self.text(value) }
        let result = withCStrings(texts) { values in
            PQexecParams(connection, sql, Int32(texts.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        let rows = try check(result)
        var values: [T] = []
        for index in 0..<PQntuples(rows) { values.append(try read(Row(result: rows, index: index))) }
        return values
    }

    /// Runs `body` in one transaction opened by `begin` (e.g. `BEGIN ISOLATION LEVEL REPEATABLE
    /// READ`) and commits it; when anything throws, rolls back and rethrows. A connection lost
    /// since the last call is re-established and set up again first; a commit whose answer is
    /// lost is an `io` error saying its outcome is unknown.
    func transaction<T>(_ begin: String, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        if PQstatus(connection) != CONNECTION_OK { try reconnect() }
        try execute(begin)
        let result: T
        do throws(LedgerError) {
            result = try body()
        } catch {
            if PQtransactionStatus(connection) != PQTRANS_IDLE, PQstatus(connection) == CONNECTION_OK {
                let rollback = PQexec(connection, "ROLLBACK")
                defer { PQclear(rollback) }
                if PQresultStatus(rollback) != PGRES_COMMAND_OK {
                    throw LedgerError(error.code, "\(error.message); rollback failed too: \(Self.trimmed(PQerrorMessage(connection)))")
                }
            }
            throw error
        }
        do throws(LedgerError) {
            try execute("COMMIT")
        } catch where PQstatus(connection) != CONNECTION_OK {
            throw LedgerError(.io, "the connection was lost during COMMIT, whose outcome is unknown: \(error.message)")
        }
        return result
    }

    /// Re-establishes a lost session, at most once per backoff interval (`reconnectBackoff`).
    private func reconnect() throws(LedgerError) {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        guard now >= nextReconnect.at else {
            throw LedgerError(.io, "the connection is lost; the next attempt to re-establish it is in \(Int(((nextReconnect.at - now) * 1000).rounded(.up))) ms")
        }
        PQreset(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            nextReconnect = (now + nextReconnect.wait, min(nextReconnect.wait * 2, Self.reconnectBackoff.last))
            throw LedgerError(.io, "the connection is lost and cannot be re-established: \(Self.trimmed(PQerrorMessage(connection)))")
        }
        nextReconnect = (0, Self.reconnectBackoff.first)
        try setUpSession()
    }

    /// A parameter as PostgreSQL's text input reads it; text holding NUL is refused (libpq's
    /// C strings would cut it short, and PostgreSQL's text cannot hold it).
    private static func text(_ value: SQLValue) throws(LedgerError) -> String {
        switch value {
        case .integer(let integer): return String(integer)
        case .real(let real) where real == .infinity: return "Infinity"
        case .real(let real) where real == -.infinity: return "-Infinity"
        case .real(let real): return "\(real)"  // Swift prints the shortest digits that read back exactly
        case .integers(let integers): return "{" + integers.map(String.init).joined(separator: ",") + "}"
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw LedgerError(.invalid, "\(text.prefix(40).debugDescription) holds a NUL character, which PostgreSQL cannot store")
            }
            return text
        }
    }

    /// Throws for a result that is not a success: unique violations are `duplicate`, other
    /// integrity violations and bad data `invalid`, the rest `io`.
    private func check(_ result: OpaquePointer?) throws(LedgerError) -> OpaquePointer {
        guard let result else { throw LedgerError(.io, Self.trimmed(PQerrorMessage(connection))) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return result
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = Self.trimmed(PQresultErrorField(result, Int32(UInt8(ascii: "M"))) ?? PQresultErrorMessage(result))
            let code: LedgerError.Code
            switch state {
            case "23505": code = .duplicate
            case _ where state.hasPrefix("23") || state.hasPrefix("22"): code = .invalid
            default: code = .io
            }
            throw LedgerError(code, state.isEmpty ? message : "\(message) (SQLSTATE \(state))")
        }
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingTrailingWhitespace } ?? "unknown libpq error"
    }
}

/// Calls `body` with `strings` as a NULL-terminated C array of C strings, valid only during the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension String {
    fileprivate var trimmingTrailingWhitespace: String {
        String(self[..<(lastIndex(where: { !$0.isWhitespace }).map(index(after:)) ?? startIndex)])
    }
}

import Foundation

/// What a ledger file must pass before it is used (docs/operations.md, "The ledger"): it is not
/// empty, it begins with the SQLite header, SQLite's own check finds nothing wrong, and it has
/// every table and column that `SQLiteSchema` creates. Each failure is a `corrupt` error whose
/// message says what is wrong and how to recover.
enum SQLiteIntegrity {
    /// How to recover, appended to every `corrupt` message.
    static let recovery = "Layercast will not use it. To recover: move layercast.sqlite (with any layercast.sqlite-wal "
        + "and layercast.sqlite-shm beside it) out of the data directory and copy the newest backup "
        + "(`layercast ledger backup`) in as layercast.sqlite; or start without a file for an empty ledger."

    /// Before SQLite opens `path`: a file that exists must not be empty (an empty file would
    /// silently become a new ledger, even beside a write-ahead log holding its data), must begin
    /// with "SQLite format 3", and, with no write-ahead log to complete it, must hold every page
    /// its header counts. A missing file is fine: it becomes a new ledger.
    static func checkFile(_ path: String) throws(LedgerError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if header.isEmpty {
            throw damaged(path, walSize > 0
                ? "is empty (0 bytes) but its write-ahead log \(path)-wal holds \(walSize) bytes: the database file was truncated"
                : "is empty (0 bytes): it was truncated, or its creation never finished")
        }
        guard header.count == 100, header.prefix(16).elementsEqual("SQLite format 3\0".utf8) else {
            throw damaged(path, "does not begin with the SQLite header: it is not a database, or its first page is overwritten")
        }
        guard walSize == 0 else { return }
        func number(_ offset: Int, _ count: Int) -> Int { header[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = number(16, 2) == 1 ? 65_536 : number(16, 2)
        let pages = number(28, 4)
        // The header's page count is valid when its change counter matches (sqlite.org/fileformat.html §1.3.7).
        if pageSize >= 512, pages > 0, number(24, 4) == number(92, 4), size < pages * pageSize {
            throw damaged(path, "is \(size) bytes but its header counts \(pages) pages of \(pageSize) bytes: it was truncated")
        }
    }

    /// After opening: SQLite's `quick_check` (or the slower, complete `integrity_check` when
    /// `thorough`) and the expected schema.
    static func check(_ connection: SQLiteConnection, path: String, thorough: Bool) throws(LedgerError) {
        let pragma = thorough ? "integrity_check" : "quick_check"
        let problems: [String]
        do throws(LedgerError) {
            problems = try connection.query("PRAGMA \(pragma)(10)") { $0.text(0) }
        } catch {
            throw damaged(path, "cannot be read through (\(error.message))")
        }
        guard problems == ["ok"] else {
            throw damaged(path, "fails SQLite's \(pragma): \(problems.prefix(3).joined(separator: "; "))")
        }
        let missing: [String]
        do throws(LedgerError) {
            missing = try missingColumns(connection)
        } catch {
            throw damaged(path, "cannot be read through (\(error.message))")
        }
        guard missing.isEmpty else {
            throw damaged(path, "lacks \(missing.prefix(5).joined(separator: ", ")) of ledger schema version \(SQLiteSchema.version)")
        }
    }

    /// `table.column type` of every column a new ledger gets (SQLiteSchema.prepare on an empty
    /// in-memory database) that `connection`'s database lacks.
    static func missingColumns(_ connection: SQLiteConnection) throws(LedgerError) -> [String] {
        let reference = try SQLiteConnection(path: ":memory:")
        try SQLiteSchema.prepare(reference, path: ":memory:")
        let found = Set(try columns(connection))
        return try columns(reference).filter { !found.contains($0) }
    }

    private static func columns(_ connection: SQLiteConnection) throws(LedgerError) -> [String] {
        let tables = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
        var columns: [String] = []
        for table in tables {
            columns += try connection.query("SELECT name, type FROM pragma_table_info(?1)", [.text(table)]) {
                "\(table).\($0.text(0)) \($0.text(1))"
            }
        }
        return columns
    }

    private static func damaged(_ path: String, _ what: String) -> LedgerError {
        LedgerError(.corrupt, "the ledger \(path) \(what). \(recovery)")
    }
}

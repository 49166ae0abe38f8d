/// Why a ledger call failed. `message` carries SQLite's own message where SQLite refused, and
/// names the database path when the file could not be opened.
public struct LedgerError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The directory or database file could not be created or opened, or is not a database.
        case open
        /// The file's schema version is one this build does not know, or it is not a ledger.
        case schema
        /// The file is damaged: empty or truncated, not an SQLite database, failing SQLite's own
        /// check, or missing tables or columns of the schema. The message says how to recover.
        case corrupt
        /// The packet of that rain already has an award; nothing was changed.
        case duplicate
        /// No such rain, or (for `recordAward` and `endRain`) the rain is no longer running.
        case notFound = "not_found"
        /// SQLite failed while reading or writing (I/O error, lock timeout, full disk, ...).
        case io
        /// A value the ledger cannot store: NaN, negative coins, ending a rain as `running`.
        case invalid
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

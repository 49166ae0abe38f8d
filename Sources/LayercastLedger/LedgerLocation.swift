import Foundation

/// Where the ledger is: `--ledger` or env `LAYERCAST_LEDGER` when given, else SQLite under
/// `--data`. The one way every command opens a ledger.
public enum LedgerLocation: Equatable, Sendable, CustomStringConvertible {
    /// `<directory>/layercast.sqlite`.
    case sqlite(directory: String)
    /// A `postgres://` or `postgresql://` URL in libpq's syntax, e.g. `postgres://USER@HOST:PORT/DB`.
    case postgres(url: String)
    /// `memory:`, for tests and demos: a new, empty `MemoryLedger` in this process at each
    /// `open()`; its rounds and awards are lost when the process stops, and no other process
    /// (a cluster's node, `layercast ledger` or `replay`) can read it.
    case memory

    /// `ledger` when it is given and not empty, else SQLite in `dataDirectory`. Throws `invalid`
    /// for anything but `memory:` or a PostgreSQL URL that libpq can parse (nothing is contacted).
    public init(_ ledger: String?, dataDirectory: String) throws(LedgerError) {
        guard let ledger, !ledger.isEmpty else {
            self = .sqlite(directory: dataDirectory)
            return
        }
        if ledger == Self.memoryName {
            self = .memory
            return
        }
        guard ledger.hasPrefix("postgres://") || ledger.hasPrefix("postgresql://") else {
            throw LedgerError(
                .invalid, "the ledger must be a URL postgres://USER@HOST:PORT/DB (or postgresql://) or \(Self.memoryName), not "
                    + "\(Self.redacted(ledger).prefix(80).debugDescription); leave it out for SQLite under --data")
        }
        if let problem = PostgresConnection.problem(with: ledger) {
            let said = problem.replacingOccurrences(of: ledger, with: Self.redacted(ledger))
            throw LedgerError(.invalid, "the ledger URL \(Self.redacted(ledger)) is malformed: \(said)")
        }
        self = .postgres(url: ledger)
    }

    /// Opens the ledger (creating or migrating its schema); see `SQLiteLedger.init` and
    /// `PostgresLedger.init` for what each throws. A memory ledger is a new, empty one.
    public func open() throws(LedgerError) -> any Ledger {
        switch self {
        case .sqlite(let directory): try SQLiteLedger(directory: directory)
        case .postgres(let url): try PostgresLedger(url: url, address: Self.redacted(url))
        case .memory: MemoryLedger()
        }
    }

    /// The directory, the URL with any password replaced by `***`, or `memory:`.
    public var description: String {
        switch self {
        case .sqlite(let directory): directory
        case .postgres(let url): Self.redacted(url)
        case .memory: Self.memoryName
        }
    }

    /// What `--ledger` says for a memory ledger.
    static let memoryName = "memory:"

    /// `url` with the password of its user part and any `password=` parameter replaced by `***`.
    static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        if let query = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map {
                $0.hasPrefix("password=") ? "password=***" : String($0)
            }
            text = String(text[...query]) + parameters.joined(separator: "&")
        }
        return text
    }
}

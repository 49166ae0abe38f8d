/// How much a ledger holds, for the `layercast ledger` commands' reports.
public struct LedgerSummary: Sendable, Equatable {
    public let schemaVersion: Int
    public let rounds: Int
    public let awards: Int
    public let coins: Int
}

/// How a process uses a ledger: locked once when `serve` starts, held while the ledger is open.
/// A sole writer excludes every other lock; cluster nodes exclude only a sole writer. Tools that
/// only read or copy the ledger (`ledger check`, `ledger backup`, `replay`) lock nothing.
public enum LedgerRole: String, Sendable {
    /// The ledger's only serving process (a node started without a cluster): at start it records
    /// the rounds its last stop left running as interrupted, which only it can know to be true.
    case soleWriter = "sole writer"
    /// One of the nodes of a cluster, which share the ledger and take over each other's rounds.
    case clusterNode = "cluster node"
}

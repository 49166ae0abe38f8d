/// How the ledger's thread wakes the service thread (`Server.cancelService`) once the server
/// exists: the waker is made before the server can be captured, and pointed at it last in `init`.
final class ServiceWaker: @unchecked Sendable {
    /// Set once, at the end of the server's `init`, before any ledger call can be answered.
    weak var server: Server?

    func wake() { server?.cancelService() }
}

/// Why the server could not start.
public enum ServerError: Error, CustomStringConvertible {
    case publicDirectory(String)
    case listen(String)
    case ledger(String)
    /// A setting that cannot be used, such as a malformed `--trust-proxy`.
    case configuration(String)

    public var description: String {
        switch self {
        case .publicDirectory(let message), .listen(let message), .ledger(let message), .configuration(let message): message
        }
    }
}

/// Why the server could not start.
public enum ServerError: Error, CustomStringConvertible {
    case publicDirectory(String)
    case listen(String)
    case ledger(String)

    public var description: String {
        switch self {
        case .publicDirectory(let message), .listen(let message), .ledger(let message): message
        }
    }
}

/// Why the server could not start.
public enum ServerError: Error, CustomStringConvertible {
    case publicDirectory(String)
    case listen(String)

    public var description: String {
        switch self {
        case .publicDirectory(let message), .listen(let message): message
        }
    }
}

/// A cluster failure: Redis unreachable, a refused command, a malformed address.
public struct ClusterError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

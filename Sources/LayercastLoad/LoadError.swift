/// Why a load test cannot run, in words for the command line.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// A rejected message: the code the client is told and a message that names what was wrong.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "bad_field: tap.x must be …".
    public var description: String { "\(code.rawValue): \(message)" }
}

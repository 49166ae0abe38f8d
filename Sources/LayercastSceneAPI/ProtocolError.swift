/// A rejected message: the code the client is told and a message that names what was wrong.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The code the client is told (the `error` message's `code`).
    public var code: ErrorCode
    /// What was wrong, naming the field.
    public var message: String

    /// A rejection with `code` and `message`.
    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// "bad_field: tap.x must be …".
    public var description: String { "\(code.rawValue): \(message)" }
}

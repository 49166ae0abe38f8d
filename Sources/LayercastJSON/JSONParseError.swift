/// Why a JSON document could not be parsed, as reported by jansson.
///
/// `line` and `column` are 1-based and point at (or just after) the offending token; `column`
/// counts characters (UTF-8 sequences), not bytes. `position` is the byte offset jansson had
/// reached. For errors that are not tied to a place in the text, `line` is 0 or negative.
public struct JSONParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// jansson's message, e.g. "'[' or '{' expected near 'x'" or "real number overflow".
    public var message: String
    /// The 1-based line of the error; 0 or negative when it has no place in the text.
    public var line: Int
    /// The 1-based column on `line`, counted in characters, not bytes.
    public var column: Int
    /// Byte offset into the input.
    public var position: Int

    /// An error with jansson's message and its place in the text.
    public init(message: String, line: Int, column: Int, position: Int = 0) {
        self.message = message
        self.line = line
        self.column = column
        self.position = position
    }

    /// "line 3, column 7: '[' or '{' expected near 'x'" (just the message when there is no line).
    public var description: String {
        guard line > 0 else { return message }
        return "line \(line), column \(column): \(message)"
    }
}

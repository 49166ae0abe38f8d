/// The value of one scene option.
public enum SceneOptionValue: Sendable, Equatable {
    /// A flag: on or off.
    case flag(Bool)
    /// A number, finite.
    case number(Double)
    /// A whole number.
    case integer(Int)
    /// Free text.
    case text(String)

    /// The kinds of value an option takes.
    public enum Kind: Sendable, Equatable {
        /// On/off, a number, a whole number, or free text: what `SceneOption`'s constructors declare.
        case flag, number, integer, text
    }

    /// The value as `--help` shows a default.
    public var description: String {
        switch self {
        case .flag(let on): on ? "on" : "off"
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .integer(let n): String(n)
        case .text(let text): text
        }
    }
}

/// The value of one scene option.
public enum SceneOptionValue: Sendable, Equatable {
    case flag(Bool)
    case number(Double)
    case integer(Int)
    case text(String)

    /// The kinds of value an option takes.
    public enum Kind: Sendable, Equatable {
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

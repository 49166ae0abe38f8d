/// One option a scene takes from `layercast serve`: `--NAME VALUE` (`--NAME` for a flag) on the
/// command line, or `LAYERCAST_NAME` in the environment (docs/writing-a-scene.md, "Options").
/// The service reads it at start and refuses a bad value before anything runs.
public struct SceneOption: Sendable {
    /// The option's name without dashes: lowercase letters, digits and inner `-`, by convention
    /// starting with the scene's id (`rain-every`).
    public let name: String
    /// What kind of value it takes; `defaultValue` is of the same kind.
    public let kind: SceneOptionValue.Kind
    /// Its value when neither the command line nor the environment gives one.
    public let defaultValue: SceneOptionValue
    /// The line `layercast serve --help` shows for it.
    public let help: String
    /// The placeholder `--help` shows for its value (`seconds`, `n`, `size`).
    public let valueName: String
    /// Why a value of the right kind is still refused ("must be 0…3600 seconds"), nil to take it.
    private let rule: @Sendable (SceneOptionValue) -> String?

    /// A flag: on when given, off by default.
    public static func flag(_ name: String, help: String) -> SceneOption {
        SceneOption(name: name, kind: .flag, defaultValue: .flag(false), help: help, valueName: "", rule: { _ in nil })
    }

    /// A finite number within `range`.
    public static func number(_ name: String, default value: Double,
                              in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude,
                              valueName: String = "n", help: String) -> SceneOption {
        SceneOption(name: name, kind: .number, defaultValue: .number(value), help: help, valueName: valueName) {
            guard case .number(let n) = $0, range.contains(n) else { return "must be a number \(Self.describe(range))" }
            return nil
        }
    }

    /// An integer within `range`.
    public static func integer(_ name: String, default value: Int, in range: ClosedRange<Int> = Int.min...Int.max,
                               valueName: String = "n", help: String) -> SceneOption {
        SceneOption(name: name, kind: .integer, defaultValue: .integer(value), help: help, valueName: valueName) {
            guard case .integer(let n) = $0, range.contains(n) else {
                return "must be an integer \(Self.describe(Double(range.lowerBound)...Double(range.upperBound)))"
            }
            return nil
        }
    }

    /// Text that `rule` accepts (it returns why not, e.g. "must be WIDTHxHEIGHT").
    public static func text(_ name: String, default value: String, valueName: String, help: String,
                            rule: @escaping @Sendable (String) -> String?) -> SceneOption {
        SceneOption(name: name, kind: .text, defaultValue: .text(value), help: help, valueName: valueName) {
            guard case .text(let text) = $0 else { return "must be text" }
            return rule(text)
        }
    }

    /// The environment variable that also sets it: `LAYERCAST_` and the name in capitals, `-` as `_`.
    public var environmentName: String {
        "LAYERCAST_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The value `text` says (a flag's text: `1`/`true`/`yes` or `0`/`false`/`no`), or why it is
    /// refused, without the option's name.
    public func value(from text: String) -> Result<SceneOptionValue, SceneOptionError> {
        let value: SceneOptionValue
        switch kind {
        case .flag:
            switch text.lowercased() {
            case "1", "true", "yes": value = .flag(true)
            case "0", "false", "no", "": value = .flag(false)
            default: return .failure(SceneOptionError(option: name, problem: "must be 1, true or yes, or 0, false or no"))
            }
        case .number:
            guard let n = Double(text), n.isFinite else { return .failure(SceneOptionError(option: name, problem: "must be a finite number")) }
            value = .number(n)
        case .integer:
            guard let n = Int(text) else { return .failure(SceneOptionError(option: name, problem: "must be an integer")) }
            value = .integer(n)
        case .text:
            value = .text(text)
        }
        if let problem = rule(value) { return .failure(SceneOptionError(option: name, problem: problem)) }
        return .success(value)
    }

    /// "≥ 0", "≤ 9" or "in 0…3600", leaving out a bound at the end of the type's range.
    private static func describe(_ range: ClosedRange<Double>) -> String {
        let low = SceneOptionValue.number(range.lowerBound).description, high = SceneOptionValue.number(range.upperBound).description
        switch (range.lowerBound > -9e15, range.upperBound < 9e15) {
        case (true, true): return "in \(low)…\(high)"
        case (true, false): return "≥ \(low)"
        case (false, true): return "≤ \(high)"
        case (false, false): return ""
        }
    }

    /// Whether `name` is a well-formed option name: 1…48 lowercase letters, digits and `-`,
    /// starting with a letter and not ending with `-`.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...48).contains(bytes.count), let first = bytes.first, (97...122).contains(first), bytes.last != 45 else { return false }
        return bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }
}

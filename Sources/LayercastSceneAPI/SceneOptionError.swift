/// Why a scene option's value, or a scene's options together, cannot be taken.
public struct SceneOptionError: Error, Equatable, CustomStringConvertible {
    /// The option's name without dashes; empty for a problem of the options together.
    public let option: String
    /// What is wrong, e.g. "must be a number in 0…3600".
    public let problem: String

    /// The error for `option` (no dashes; empty for the options together) with `problem`.
    public init(option: String, problem: String) {
        self.option = option
        self.problem = problem
    }

    /// `--NAME problem`, or the problem alone.
    public var description: String {
        option.isEmpty ? problem : "--\(option) \(problem)"
    }
}

/// The options one scene runs with: each declared option's given value, or its default.
/// Read by the scene's `controller(seed:options:services:)`.
public struct SceneOptionValues: Sendable, Equatable {
    private var values: [String: SceneOptionValue]

    /// Every option of `scene` at its default.
    public init(defaultsOf scene: any Scene.Type) {
        values = Dictionary(scene.options.map { ($0.name, $0.defaultValue) }, uniquingKeysWith: { first, _ in first })
    }

    /// `scene`'s options with `given` (name → text, as on the command line) over the defaults:
    /// throws for a name the scene does not declare, a refused value, or options the scene's
    /// `validationError(_:)` refuses together.
    public init(for scene: any Scene.Type, _ given: [String: String]) throws(SceneOptionError) {
        self.init(defaultsOf: scene)
        for (name, text) in given.sorted(by: { $0.key < $1.key }) {
            guard let option = scene.options.first(where: { $0.name == name }) else {
                throw SceneOptionError(option: name, problem: "is not an option of the scene \"\(scene.info.id)\"")
            }
            values[name] = try option.value(from: text).get()
        }
        if let problem = scene.validationError(self) { throw SceneOptionError(option: "", problem: problem) }
    }

    /// The flag `name` (declared with `.flag`).
    public func flag(_ name: String) -> Bool {
        guard case .flag(let on) = value(name) else { preconditionFailure("scene option \(name) is not a flag") }
        return on
    }

    /// The number `name` (declared with `.number`).
    public func number(_ name: String) -> Double {
        guard case .number(let n) = value(name) else { preconditionFailure("scene option \(name) is not a number") }
        return n
    }

    /// The integer `name` (declared with `.integer`).
    public func integer(_ name: String) -> Int {
        guard case .integer(let n) = value(name) else { preconditionFailure("scene option \(name) is not an integer") }
        return n
    }

    /// The text `name` (declared with `.text`).
    public func text(_ name: String) -> String {
        guard case .text(let text) = value(name) else { preconditionFailure("scene option \(name) is not text") }
        return text
    }

    /// Reading an option the scene did not declare is a programming error, caught by its first test.
    private func value(_ name: String) -> SceneOptionValue {
        guard let value = values[name] else { preconditionFailure("scene option \(name) is not declared in the scene's options") }
        return value
    }
}

/// A configuration `Configuration.validate()` refuses, worded for the flag a user would change.
struct ConfigurationError: Error, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    let message: String

    init(stringLiteral message: String) { self.message = message }
}

import LayercastJSON

/// A JSON value (nil when absent) with the path it was read from, so that decoding errors name
/// the field: "tap.x must be a finite number within ±100000 (it is a string)" (`bad_field`).
public struct FieldReader {
    /// The value read; nil when the field is absent.
    public let value: JSONValue?
    /// Where it was read from, as errors name it (`tap.x`).
    public let path: String

    /// A reader of `value`, found at `path`.
    public init(_ value: JSONValue?, path: String) {
        self.value = value
        self.path = path
    }

    /// The member `key` of this object (absent when this is not an object or lacks it).
    public func member(_ key: String) -> FieldReader {
        FieldReader(value?[key], path: "\(path).\(key)")
    }

    /// Whether the field is missing (null is present).
    public var isAbsent: Bool { value == nil }

    /// Absent or null.
    public var isAbsentOrNull: Bool { value == nil || value == .null }

    /// This field, unless it is absent or null (an optional member left to its default).
    public var present: FieldReader? { isAbsentOrNull ? nil : self }

    /// A `bad_field` error "<path> must be <requirement> (it is <what it is>)".
    public func error(_ requirement: String) -> ProtocolError {
        ProtocolError(.badField, "\(path) must be \(requirement) (it is \(Self.describe(value)))")
    }

    /// A finite number in `range`; `requirement` describes both for the error.
    public func number(_ requirement: String = "a finite number", in range: ClosedRange<Double>? = nil) throws(ProtocolError) -> Double {
        guard case .number(let x)? = value, x.isFinite, range?.contains(x) ?? true else { throw error(requirement) }
        return x
    }

    /// An integral number that fits an `Int`.
    public func integer() throws(ProtocolError) -> Int {
        guard let n = value?.intValue else { throw error("an integer") }
        return n
    }

    /// A string.
    public func string() throws(ProtocolError) -> String {
        guard case .string(let s)? = value else { throw error("a string") }
        return s
    }

    /// `true` or `false`.
    public func bool() throws(ProtocolError) -> Bool {
        guard case .bool(let b)? = value else { throw error("true or false") }
        return b
    }

    /// The elements, each with its index in the path.
    public func array(_ requirement: String = "an array") throws(ProtocolError) -> [FieldReader] {
        guard case .array(let elements)? = value else { throw error(requirement) }
        return elements.enumerated().map { FieldReader($0.element, path: "\(path)[\($0.offset)]") }
    }

    /// Checks that this is an object.
    public func object() throws(ProtocolError) -> FieldReader {
        guard case .object? = value else { throw error("an object") }
        return self
    }

    /// "missing", "null", "true", "the string \"jump\"", "an array", "an object" or the number itself.
    public static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .null?: "null"
        case .bool(let b)?: b ? "true" : "false"
        case .number(let x)?: "\(x)"
        case .string(let text)?: "the string \(quoted(text))"
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    /// `text` as a JSON string, cut to 40 characters so that an error message stays short.
    public static func quoted(_ text: String) -> String {
        JSONValue.string(text.count > 40 ? text.prefix(40) + "…" : text).serialized()
    }
}

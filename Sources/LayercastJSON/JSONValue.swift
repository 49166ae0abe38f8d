// `internal`: CJansson stays an implementation detail; modules importing LayercastJSON do not see it.
internal import CJansson

/// A JSON value. This module is the project's only bridge to jansson: `parse` reads JSON text
/// with `json_loadb`, and `serialized`, `text` and `JSONTree` write it with `json_dump_callback`;
/// no other module imports CJansson.
///
/// Numbers are `Double`s. The parser reads every number, integer or not, as a double (jansson's
/// `JSON_DECODE_INT_AS_REAL`), so integers beyond ±2^53 are rounded to the nearest double and
/// huge integers that jansson's `long long` could not hold are still accepted; numbers that
/// overflow a double (1e400) are rejected.
public enum JSONValue: Sendable, Equatable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, integer or not, as a double.
    case number(Double)
    /// A string of Unicode text.
    case string(String)
    /// An array of values in order.
    case array([JSONValue])
    /// An object whose members keep their order.
    case object(JSONObject)
}

// MARK: - Literals

// No `nil` literal: JSON's null is spelled `.null`. With one, `empty ? nil : value` in a function
// returning `JSONValue?` type-checked as `.null`, never `nil` (the load tool sent `null` for it).

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Members keep the literal's order; a repeated key keeps its first position and last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The number, or nil when this is not a number.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int` when it is integral and fits, else nil.
    public var intValue: Int? {
        guard case .number(let value) = self, let integer = Self.exactInteger(value) else { return nil }
        return Int(exactly: integer)
    }

    /// The string, or nil when this is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The flag, or nil when this is not a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, or nil when this is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, or nil when this is not an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is JSON's `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// "null", "boolean", "number", "string", "array" or "object", for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The member `key` of an object; nil when this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index` of an array; nil when this is not an array or the index is out
    /// of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialization.
    public var description: String { serialized() }
}

// MARK: - Parsing

extension JSONValue {
    /// Parses a JSON document. Any value is accepted at top level (`"x"`, `3`, `null`, ...).
    ///
    /// Rejected: malformed JSON, an object with a repeated key, `NaN`/`Infinity` (not JSON),
    /// numbers that overflow a double, values nested deeper than `maximumNestingDepth` (2048,
    /// jansson's limit), trailing non-whitespace, comments. Strings may contain `\u0000`; it is
    /// kept. Object keys containing `\u0000` are rejected (jansson: "NUL byte in object key not
    /// supported").
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { utf8 in
            Self.parseResult(UnsafeRawBufferPointer(utf8))
        }
        return try result.get()
    }

    /// Parses a JSON document given as UTF-8 bytes; see `parse(_:)`. Invalid UTF-8 is rejected.
    public static func parse(bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        try parseResult(bytes).get()
    }

    private static func parseResult(_ bytes: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> {
        let flags = Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL)
        var error = json_error_t()
        let root: UnsafeMutablePointer<json_t>?
        if let base = bytes.baseAddress, bytes.count > 0 {
            root = json_loadb(base.assumingMemoryBound(to: CChar.self), bytes.count, flags, &error)
        } else {
            // An empty buffer may have no address; jansson wants one to report "end of file".
            var empty: CChar = 0
            root = json_loadb(&empty, 0, flags, &error)
        }
        guard let root else {
            return .failure(JSONParseError(
                message: errorText(&error),
                line: Int(error.line),
                column: Int(error.column),
                position: Int(error.position)))
        }
        defer { layercast_json_decref(root) }
        return .success(value(of: root))
    }

    private static func errorText(_ error: inout json_error_t) -> String {
        withUnsafeBytes(of: &error.text) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Maps a jansson tree to a JSONValue (borrowing `json`; the caller keeps ownership).
    static func value(of json: UnsafeMutablePointer<json_t>) -> JSONValue {
        switch json.pointee.type {
        case JSON_NULL:
            return .null
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        case JSON_INTEGER:
            // Not produced with JSON_DECODE_INT_AS_REAL, handled for completeness.
            return .number(Double(json_integer_value(json)))
        case JSON_REAL:
            return .number(json_real_value(json))
        case JSON_STRING:
            return .string(string(json_string_value(json), length: json_string_length(json)))
        case JSON_ARRAY:
            let count = json_array_size(json)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for position in 0..<count {
                if let element = json_array_get(json, position) {
                    elements.append(value(of: element))
                }
            }
            return .array(elements)
        case JSON_OBJECT:
            var members: [JSONObject.Element] = []
            members.reserveCapacity(json_object_size(json))
            var iterator = json_object_iter(json)
            while let current = iterator {
                let key = string(json_object_iter_key(current), length: json_object_iter_key_len(current))
                if let member = json_object_iter_value(current) {
                    members.append((key: key, value: value(of: member)))
                }
                iterator = json_object_iter_next(json, current)
            }
            return .object(JSONObject(uniqueMembers: members))
        default:
            return .null
        }
    }

    /// A Swift string from jansson's UTF-8 bytes and length (so embedded NULs survive).
    private static func string(_ pointer: UnsafePointer<CChar>?, length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}

// MARK: - Serialization

extension JSONValue {
    /// The JSON text of this value: compact (`{"a":[1,2]}`), or indented by two spaces when
    /// `pretty`. Object members are written in `JSONObject` order, non-ASCII characters are
    /// written as UTF-8 (not `\u` escapes), `/` is not escaped.
    ///
    /// Numbers that are integral and within ±2^53 are written as integers (`3.0` → `3`,
    /// `-0.0` → `0`); other numbers are written with 15 significant digits (`0.1` → `0.1`,
    /// `1e20` → `1e20`), so a double needing 16–17 digits does not round-trip exactly.
    /// Non-finite numbers (NaN, ±infinity) have no JSON form and are written as `null`.
    ///
    /// Precondition: values nest at most `maximumNestingDepth` (2048) deep, the depth `parse`
    /// accepts; deeper values trap.
    public func serialized(pretty: Bool = false) -> String {
        dumped(flags: Self.dumpFlags(pretty: pretty), headroom: 0).string
    }

    /// The compact text (`serialized()`'s bytes) after `headroom` free bytes, with no `String` in
    /// between. Same precondition as `serialized()`.
    public func text(headroom: Int = 0) -> JSONText {
        dumped(flags: Self.dumpFlags(pretty: false), headroom: headroom)
    }

    private func dumped(flags: Int, headroom: Int) -> JSONText {
        guard let root = Self.makeJSON(self) else {
            fatalError("LayercastJSON: jansson could not allocate a value")  // out of memory
        }
        defer { layercast_json_decref(root) }
        return JSONText(dumping: root, flags: flags, headroom: headroom)
    }

    /// jansson's flags for the text `serialized(pretty:)` documents.
    static func dumpFlags(pretty: Bool) -> Int {
        let realPrecision15 = 15 << 11  // JSON_REAL_PRECISION(15)
        let indent2 = 2  // JSON_INDENT(2)
        return Int(JSON_PRESERVE_ORDER | JSON_ENCODE_ANY) | realPrecision15 | (pretty ? indent2 : Int(JSON_COMPACT))
    }

    /// `value` as an Int64 when it is integral and within Int64's range. (Written without
    /// `rounded()`, which would make this module need libm at link time.)
    static func exactInteger(_ value: Double) -> Int64? {
        // -2^63 is exact; 2^63 is the first double above Int64.max.
        guard value.isFinite, value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 else {
            return nil
        }
        let integer = Int64(value)
        return Double(integer) == value ? integer : nil
    }

    /// Builds a new jansson tree (owned reference, nil only if jansson runs out of memory).
    ///
    /// Iterative rather than recursive, so deeply nested values built in Swift cannot overflow
    /// the stack here: each container is attached to its parent when created and filled later.
    private static func makeJSON(_ value: JSONValue) -> UnsafeMutablePointer<json_t>? {
        enum Pending {
            case array(UnsafeMutablePointer<json_t>, [JSONValue], next: Int, depth: Int)
            case object(UnsafeMutablePointer<json_t>, [JSONObject.Element], next: Int, depth: Int)
        }
        var stack: [Pending] = []

        /// A new json_t for `value`; containers are created empty and queued for filling.
        func node(_ value: JSONValue, depth: Int) -> UnsafeMutablePointer<json_t>? {
            checkDepth(depth)
            switch value {
            case .array(let elements):
                guard let array = json_array() else { return nil }
                if !elements.isEmpty { stack.append(.array(array, elements, next: 0, depth: depth)) }
                return array
            case .object(let object):
                guard let result = json_object() else { return nil }
                if !object.isEmpty { stack.append(.object(result, object.pairs, next: 0, depth: depth)) }
                return result
            default:
                return scalar(value)
            }
        }

        guard let root = node(value, depth: 1) else { return nil }
        while let top = stack.popLast() {
            let status: Int32
            switch top {
            case .array(let array, let elements, let next, let depth):
                if next + 1 < elements.count {
                    stack.append(.array(array, elements, next: next + 1, depth: depth))
                }
                // json_array_append_new takes the reference even when it fails.
                status = json_array_append_new(array, node(elements[next], depth: depth + 1))
            case .object(let object, let members, let next, let depth):
                if next + 1 < members.count {
                    stack.append(.object(object, members, next: next + 1, depth: depth))
                }
                let (key, member) = members[next]
                // json_object_setn_new_nocheck takes the value's reference even when it fails.
                status = withUTF8CString(key) { chars, length in
                    json_object_setn_new_nocheck(object, chars, length, node(member, depth: depth + 1))
                }
            }
            guard status == 0 else {
                layercast_json_decref(root)
                return nil
            }
        }
        return root
    }

    /// How deep values may nest, counting the top-level value as depth 1 and each array element
    /// or object member one deeper than its container (so `[[1]]` has depth 3, `[[]]` depth 2).
    /// This is jansson's parser limit (JSON_PARSER_MAX_DEPTH): `parse` rejects deeper documents
    /// and `serialized()` traps on deeper values, so everything written can be parsed back
    /// (jansson's printer is recursive and would overflow the stack on much deeper values).
    public static let maximumNestingDepth = 2048

    private static func checkDepth(_ depth: Int) {
        precondition(
            depth <= maximumNestingDepth,
            "LayercastJSON: cannot serialize values nested more than \(maximumNestingDepth) deep")
    }

    /// A new json_t for a scalar value (nil for containers or when jansson runs out of memory).
    private static func scalar(_ value: JSONValue) -> UnsafeMutablePointer<json_t>? {
        switch value {
        case .null:
            return json_null()
        case .bool(let flag):
            return flag ? json_true() : json_false()
        case .number(let number):
            return makeNumber(number)
        case .string(let text):
            return makeString(text)
        case .array, .object:
            return nil
        }
    }

    /// A new json_t for a number as `serialized()` documents: an integer when integral within
    /// ±2^53, null when not finite, else a real.
    static func makeNumber(_ number: Double) -> UnsafeMutablePointer<json_t>? {
        guard number.isFinite else { return json_null() }
        if let integer = exactInteger(number), abs(integer) <= 9_007_199_254_740_992 {
            return json_integer(json_int_t(integer))
        }
        return json_real(number)
    }

    static func makeString(_ text: String) -> UnsafeMutablePointer<json_t>? {
        withUTF8CString(text) { chars, length in json_stringn_nocheck(chars, length) }
    }

    /// Calls `body` with the UTF-8 bytes of `text` and their count (not NUL-terminated; the
    /// text may contain NULs). The pointer is valid even for the empty string.
    static func withUTF8CString<R>(
        _ text: String, _ body: (UnsafePointer<CChar>, Int) -> R
    ) -> R {
        var text = text
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                var none: CChar = 0
                return body(&none, 0)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { body($0, utf8.count) }
        }
    }
}

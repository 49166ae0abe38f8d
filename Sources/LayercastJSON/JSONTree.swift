internal import CJansson

/// A JSON object or array built member by member straight into a jansson tree, without
/// `JSONValue`; numbers, strings and member order are written as `JSONValue.serialized()` does.
///
/// Setting or appending a tree shares it (jansson counts references) and seals it: changing a
/// sealed tree traps, so trees cannot form cycles and one tree can be part of many messages.
public final class JSONTree {
    /// The owned reference.
    private let json: UnsafeMutablePointer<json_t>
    /// Nesting depth as `JSONValue.maximumNestingDepth` counts it.
    private var depth = 1
    private var isSealed = false

    private init(_ json: UnsafeMutablePointer<json_t>?) {
        guard let json else { fatalError("LayercastJSON: jansson could not allocate a value") }
        self.json = json
    }

    deinit { layercast_json_decref(json) }

    /// An empty object; members are written in the order they are first set.
    public static func object() -> JSONTree { JSONTree(json_object()) }

    /// An empty array.
    public static func array() -> JSONTree { JSONTree(json_array()) }

    // MARK: Object members (a repeated key keeps its position and takes the new value)

    /// Sets the member `key` to a number; a number that is not finite is written as null.
    public func set(_ key: String, _ number: Double) { set(key, json: JSONValue.makeNumber(number)) }

    /// Sets the member `key` to a string.
    public func set(_ key: String, _ string: String) { set(key, json: JSONValue.makeString(string)) }

    /// Sets the member `key` to `true` or `false`.
    public func set(_ key: String, _ flag: Bool) { set(key, json: flag ? json_true() : json_false()) }

    /// Sets the member `key` to null.
    public func setNull(_ key: String) { set(key, json: json_null()) }

    /// Shares `tree` as the member `key` and seals it.
    public func set(_ key: String, _ tree: JSONTree) { set(key, json: adopt(tree)) }

    // MARK: Array elements

    /// Appends a number; a number that is not finite is written as null.
    public func append(_ number: Double) { append(json: JSONValue.makeNumber(number)) }

    /// Appends a string.
    public func append(_ string: String) { append(json: JSONValue.makeString(string)) }

    /// Shares `tree` as the last element and seals it.
    public func append(_ tree: JSONTree) { append(json: adopt(tree)) }

    // MARK: Output

    /// The compact JSON text (`JSONValue.serialized()`'s bytes) after `headroom` free bytes.
    public func text(headroom: Int = 0) -> JSONText {
        JSONText(dumping: json, flags: JSONValue.dumpFlags(pretty: false), headroom: headroom)
    }

    /// The tree as a `JSONValue`.
    public var value: JSONValue { JSONValue.value(of: json) }

    // MARK: Private

    /// A new reference to `tree`'s value, after sealing it and growing this tree's depth.
    private func adopt(_ tree: JSONTree) -> UnsafeMutablePointer<json_t>? {
        tree.isSealed = true
        depth = max(depth, tree.depth + 1)
        precondition(
            depth <= JSONValue.maximumNestingDepth,
            "LayercastJSON: cannot build values nested more than \(JSONValue.maximumNestingDepth) deep")
        return layercast_json_incref(tree.json)
    }

    /// Sets the member, taking the reference `value` (nil when jansson ran out of memory).
    private func set(_ key: String, json value: UnsafeMutablePointer<json_t>?) {
        precondition(!isSealed, "LayercastJSON: a JSONTree cannot change once it is part of another")
        let status = JSONValue.withUTF8CString(key) { chars, length in
            json_object_setn_new_nocheck(json, chars, length, value)
        }
        guard status == 0 else { fatalError("LayercastJSON: jansson could not set \(key) (not an object, or out of memory)") }
    }

    /// Appends, taking the reference `value` (nil when jansson ran out of memory).
    private func append(json value: UnsafeMutablePointer<json_t>?) {
        precondition(!isSealed, "LayercastJSON: a JSONTree cannot change once it is part of another")
        guard json_array_append_new(json, value) == 0 else {
            fatalError("LayercastJSON: jansson could not append (not an array, or out of memory)")
        }
    }
}

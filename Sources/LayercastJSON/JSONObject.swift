/// A JSON object whose members keep their order: document order after parsing, insertion order
/// when built in Swift. Serialization writes the members in this order.
///
/// Keys are unique. Building an object from pairs that repeat a key keeps the key at its first
/// position with the value of its last occurrence (JSON text with a repeated key is rejected by
/// `JSONValue.parse`). Keys compare with Swift `String` equality, i.e. canonically equivalent
/// spellings ("é" precomposed and decomposed) count as the same key.
///
/// Equality is JSON equality: two objects are equal when they have the same keys with equal
/// values, whatever the order of their members. Compare `keys` to check the order too.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    /// The members in order.
    public private(set) var pairs: [Element]
    /// Position of each key in `pairs`.
    private var index: [String: Int]

    /// An empty object.
    public init() {
        pairs = []
        index = [:]
    }

    /// An object with the given members, in order. A repeated key keeps its first position and
    /// takes the value of its last occurrence.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        self.pairs.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            self[key] = value
        }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// Members from a parser that already guarantees unique keys (no duplicate check needed,
    /// but canonically equivalent keys that differ byte-wise are kept apart like jansson does).
    init(uniqueMembers: [Element]) {
        pairs = uniqueMembers
        index = Dictionary(minimumCapacity: uniqueMembers.count)
        for (position, member) in uniqueMembers.enumerated() where index[member.key] == nil {
            index[member.key] = position
        }
    }

    /// The keys in order.
    public var keys: [String] { pairs.map(\.key) }

    /// The values in key order.
    public var values: [JSONValue] { pairs.map(\.value) }

    /// The number of members.
    public var count: Int { pairs.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { pairs.isEmpty }

    /// The value for `key`, or nil when the object has no such member.
    ///
    /// Setting a value replaces the value in place (the key keeps its position) or appends a new
    /// member; setting `nil` removes the member. (To store a JSON null, set `.null`.)
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = index[key] else { return nil }
            return pairs[position].value
        }
        set {
            if let position = index[key] {
                if let newValue {
                    pairs[position].value = newValue
                } else {
                    pairs.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                index[key] = pairs.count
                pairs.append((key: key, value: newValue))
            }
        }
    }

    /// Whether the object has a member named `key` (its value may be null).
    public func contains(key: String) -> Bool {
        index[key] != nil
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        pairs.makeIterator()
    }

    public var underestimatedCount: Int { pairs.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.pairs.count == rhs.pairs.count else { return false }
        for (key, value) in lhs.pairs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }

    private mutating func rebuildIndex() {
        index.removeAll(keepingCapacity: true)
        for (position, member) in pairs.enumerated() where index[member.key] == nil {
            index[member.key] = position
        }
    }
}

import LayercastJSON
import LayercastSceneAPI

/// One entry of a delta's `set`: the fields of item `id` that changed, with their new values.
public struct ItemChange: Hashable, Sendable {
    public var id: Int
    /// In `DrawField.Key` order, each key at most once.
    public var fields: [DrawField]
    /// Changes of an emitter item's particles; nil when they did not change.
    public var births: BirthDelta?

    public init(id: Int, fields: [DrawField], births: BirthDelta? = nil) {
        self.id = id
        self.fields = fields
        self.births = births
    }

    /// `{"id":2,"m":[…],"o":0.84}`, a field at its default written `null`.
    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("id", Double(id))
        for field in fields { field.write(to: object) }
        births?.write(to: object)
        return object
    }

    /// Reads an entry as `json` writes it; unknown keys are ignored.
    init(_ entry: FieldReader) throws(ProtocolError) {
        _ = try entry.object()
        var fields: [DrawField] = []
        for key in DrawField.Key.allCases {
            let member = entry.member(key.rawValue)
            if !member.isAbsent { fields.append(try DrawField(key, member)) }
        }
        self.init(id: try entry.member("id").integer(), fields: fields,
                  births: BirthDelta.isPresent(in: entry) ? try BirthDelta(entry: entry) : nil)
    }
}

import LayercastJSON
import LayercastSceneAPI

/// A shape item's fill: `{"path":3,"c":"#ff0000","rule":"evenodd"}` — the frame's path `path`
/// filled with `c` by the rule (`nonzero`, left out, or `evenodd`).
public struct DrawFill: Hashable, Sendable {
    /// An id of the frame's path table.
    public var path: Int
    public var color: DrawColor
    public var evenOdd: Bool

    public init(path: Int, color: DrawColor, evenOdd: Bool = false) {
        (self.path, self.color, self.evenOdd) = (path, color, evenOdd)
    }

    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("path", Double(path))
        object.set("c", color.hex)
        if evenOdd { object.set("rule", "evenodd") }
        return object
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        let rule = field.member("rule")
        let ruleName = rule.isAbsent ? "nonzero" : try rule.string()
        guard ruleName == "nonzero" || ruleName == "evenodd" else { throw rule.error("\"nonzero\" or \"evenodd\"") }
        self.init(path: try field.member("path").integer(), color: try field.member("c").color(), evenOdd: ruleName == "evenodd")
    }
}

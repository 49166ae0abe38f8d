import LayercastJSON
import LayercastSceneAPI

/// A gradient item's ramp: `{"type":"axial","stops":[[0,"#ff0000"],[1,"#0000ff"]],"p0":[0,0],"p1":[0,100]}`.
/// `p0`, `p1` are the start and end points in the item's rect coordinates (unit points × size);
/// stops are in ascending order (1e-4), colours unpremultiplied (protocol.md, "Gradients").
public struct DrawGradient: Hashable, Sendable {
    /// `axial`, `radial` or `conic`.
    public var type: String
    public var stops: [Stop]
    public var start: (x: Double, y: Double)
    public var end: (x: Double, y: Double)

    public struct Stop: Hashable, Sendable {
        public var offset: Double
        public var color: DrawColor
        public init(offset: Double, color: DrawColor) { (self.offset, self.color) = (offset, color) }
    }

    static let types = ["axial", "radial", "conic"]

    public init(type: String, stops: [Stop], start: (x: Double, y: Double), end: (x: Double, y: Double)) {
        (self.type, self.stops, self.start, self.end) = (type, stops, start, end)
    }

    public static func == (a: DrawGradient, b: DrawGradient) -> Bool {
        a.type == b.type && a.stops == b.stops && a.start == b.start && a.end == b.end
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(stops)
        hasher.combine(start.x)
        hasher.combine(start.y)
        hasher.combine(end.x)
        hasher.combine(end.y)
    }

    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("type", type)
        let array = JSONTree.array()
        for stop in stops {
            let pair = JSONTree.array()
            pair.append(stop.offset)
            pair.append(stop.color.hex)
            array.append(pair)
        }
        object.set("stops", array)
        object.set("p0", Self.pair(start))
        object.set("p1", Self.pair(end))
        return object
    }

    private static func pair(_ p: (x: Double, y: Double)) -> JSONTree {
        let array = JSONTree.array()
        array.append(p.x)
        array.append(p.y)
        return array
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        let typeField = field.member("type")
        let type = try typeField.string()
        guard Self.types.contains(type) else { throw typeField.error("\"axial\", \"radial\" or \"conic\"") }
        var stops: [Stop] = []
        for entry in try field.member("stops").array() {
            let pair = try entry.array("[offset, colour]")
            guard pair.count == 2 else { throw entry.error("[offset, colour]") }
            stops.append(Stop(offset: try pair[0].number(), color: try pair[1].color()))
        }
        func point(_ key: String) throws(ProtocolError) -> (x: Double, y: Double) {
            let member = field.member(key)
            let xy = try member.array("[x, y]")
            guard xy.count == 2 else { throw member.error("[x, y]") }
            return (try xy[0].number(), try xy[1].number())
        }
        self.init(type: type, stops: stops, start: try point("p0"), end: try point("p1"))
    }
}

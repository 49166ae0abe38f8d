import LayercastJSON
import LayercastSceneAPI

/// The visible layers of one frame, back to front (a full frame's `items`); ids are unique.
/// `paths` is the frame's path table: every path its items' fills and strokes name, by id.
/// `time` is the frame's `t` (quantised), at which its particle records are alive.
public struct DisplayList: Hashable, Sendable {
    public var items: [DrawItem]
    public var paths: [Int: DrawPath]
    public var time: Double

    public init(items: [DrawItem] = [], paths: [Int: DrawPath] = [:], time: Double = 0) {
        self.items = items
        self.paths = paths
        self.time = time
    }

    /// Parses the `items` of a full `frame` message (`FrameMessage.full`).
    public init(fullFrame message: JSONValue) throws(ProtocolError) {
        let frame = try FrameMessage.frameReader(message, full: true)
        var items: [DrawItem] = []
        for item in try frame.member("items").array() { items.append(try DrawItem(item)) }
        self.init(items: items, paths: try Self.paths(frame.member("paths")), time: try frame.member("t").number())
    }

    /// Reads a `paths` member, `[[id, "data"], …]`; absent is empty.
    static func paths(_ field: FieldReader) throws(ProtocolError) -> [Int: DrawPath] {
        var paths: [Int: DrawPath] = [:]
        if field.isAbsent { return paths }
        for entry in try field.array() {
            let pair = try entry.array("[id, path data]")
            guard pair.count == 2 else { throw entry.error("[id, path data]") }
            paths[try pair[0].integer()] = DrawPath(data: try pair[1].string())
        }
        return paths
    }

    /// `paths` as `[[id, "data"], …]` in ascending id order.
    static func tree(_ paths: [Int: DrawPath]) -> JSONTree {
        let array = JSONTree.array()
        for id in paths.keys.sorted() {
            let pair = JSONTree.array()
            pair.append(Double(id))
            pair.append(paths[id]!.data)
            array.append(pair)
        }
        return array
    }
}

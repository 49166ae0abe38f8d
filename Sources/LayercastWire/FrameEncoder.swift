import LayercastJSON

/// Writes a room's `frame` messages as jansson trees, the text of `FrameMessage.full` and
/// `.delta` without a `JSONValue`. Keeps the item trees of its last full frame and shares them
/// in the next full frame for the items that did not change.
public final class FrameEncoder {
    /// The last full frame's items by id, each with its tree.
    private var items: [Int: (item: DrawItem, tree: JSONTree)] = [:]

    public init() {}

    /// `FrameMessage.full` as a tree.
    public func full(_ list: DisplayList, number: Int, time: Double) -> JSONTree {
        var kept: [Int: (item: DrawItem, tree: JSONTree)] = Dictionary(minimumCapacity: list.items.count)
        let array = JSONTree.array()
        for item in list.items {
            let tree = if let old = items[item.id], old.item == item { old.tree } else { item.tree }
            array.append(tree)
            kept[item.id] = (item, tree)
        }
        items = kept
        let object = Self.header(number: number, time: time, full: true)
        object.set("items", array)
        if !list.paths.isEmpty { object.set("paths", DisplayList.tree(list.paths)) }
        return object
    }

    /// `FrameMessage.delta` as a tree: the changes from every frame numbered `base` through
    /// `number - 1` (one list) to frame `number`; `b` is written only when `base` is not `number - 1`.
    public func delta(_ delta: FrameDelta, number: Int, time: Double, base: Int? = nil) -> JSONTree {
        let object = Self.header(number: number, time: time, full: false)
        if let base, base != number - 1 { object.set("b", Double(base)) }
        if !delta.set.isEmpty {
            let set = JSONTree.array()
            for change in delta.set { set.append(change.tree) }
            object.set("set", set)
        }
        if !delta.add.isEmpty {
            let add = JSONTree.array()
            for item in delta.add { add.append(item.tree) }
            object.set("add", add)
        }
        if !delta.remove.isEmpty { object.set("remove", Self.ids(delta.remove)) }
        if let order = delta.order { object.set("order", Self.ids(order)) }
        if !delta.paths.isEmpty { object.set("paths", DisplayList.tree(delta.paths)) }
        if !delta.dropPaths.isEmpty { object.set("unpaths", Self.ids(delta.dropPaths)) }
        return object
    }

    /// `{"type":"frame","n":…,"t":…,"full":…}`.
    private static func header(number: Int, time: Double, full: Bool) -> JSONTree {
        let object = JSONTree.object()
        object.set("type", "frame")
        object.set("n", Double(number))
        object.set("t", Quantize.time(time))
        object.set("full", full)
        return object
    }

    private static func ids(_ ids: [Int]) -> JSONTree {
        let array = JSONTree.array()
        for id in ids { array.append(Double(id)) }
        return array
    }
}

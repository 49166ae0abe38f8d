import LayercastJSON
import LayercastSceneAPI

/// What an item does to the `n` items that follow it (its sublayers' items, protocol.md "Clips and
/// masks"): `{"n":4,"clip":true,"mask":[…items…]}`. `clip`: they are clipped to the item's rect
/// rounded by its `cr` (`masksToBounds`; the item's own drawing is not clipped). `mask`: the item
/// and those `n` items are drawn together and multiplied by the alpha of the mask's items, which
/// are drawn in scene coordinates like any item but never shown themselves.
public struct DrawGroup: Hashable, Sendable {
    public var count: Int
    public var clips: Bool
    /// The mask layer's items, back to front; nil without a mask.
    public var mask: [DrawItem]?

    public init(count: Int, clips: Bool = false, mask: [DrawItem]? = nil) {
        (self.count, self.clips, self.mask) = (count, clips, mask)
    }

    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("n", Double(count))
        if clips { object.set("clip", true) }
        if let mask {
            let array = JSONTree.array()
            for item in mask { array.append(item.tree) }
            object.set("mask", array)
        }
        return object
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        let clip = field.member("clip"), maskField = field.member("mask")
        var mask: [DrawItem]?
        if !maskField.isAbsent {
            var items: [DrawItem] = []
            for item in try maskField.array() { items.append(try DrawItem(item)) }
            mask = items
        }
        self.init(count: try field.member("n").integer(), clips: clip.isAbsent ? false : try clip.bool(), mask: mask)
    }
}

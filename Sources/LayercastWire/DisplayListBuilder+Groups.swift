import Foundation
import LayercastEngine

extension DisplayListBuilder {
    /// Gives the item at `start` (the layer's, already appended with its sublayers' items after it)
    /// its group (protocol.md, "Clips and masks"): the clip of `masksToBounds`, and the items of
    /// `mask`, built in the layer's bounds space (without its `sublayerTransform`) and in its time.
    /// A mask that draws nothing hides the layer and its sublayers; a group with nothing to do is
    /// left out, and so is an item that was made only to carry it.
    func group(_ layer: CALayer, _ props: LayerProperties, at start: Int, localTime: CFTimeInterval, clockRate: Double,
               toScene: CATransform3D) {
        var mask: [DrawItem]?
        if let maskLayer = layer.mask {
            let outer = items
            items = []
            let time = Self.localTime(of: maskLayer, parentTime: localTime)
            visit(maskLayer, maskLayer.presentedProperties(atLocalTime: time), localTime: time,
                  in: Placement(opacity: 1, toContext: .identity, contextToScene: Self.flatteningMatrix.concatenating(toScene),
                                clockRate: clockRate))
            mask = items
            items = outer
            if mask?.isEmpty == true { return items.removeSubrange(start...) }
        }
        let clips = props.masksToBounds && items.count > start + 1
        if clips || mask != nil {
            items[start].group = DrawGroup(count: items.count - start - 1, clips: clips, mask: mask)
        } else if items[start].isBlank {
            items.remove(at: start)
        }
    }

    /// Multiplies the colours of replicator copy items by the copy's colour (its alpha is already in
    /// their opacity): backgrounds, borders, text, shadows, gradients, fills, strokes, image tints
    /// (`it`, white when absent, left out when the product is white); particle records are made
    /// tinted already (`copyTint`, protocol.md, "Replicators").
    static func tint(_ items: inout ArraySlice<DrawItem>, by color: CGColor) {
        guard color.red < 1 || color.green < 1 || color.blue < 1 else { return }
        func times(_ c: DrawColor) -> DrawColor {
            func channel(_ byte: UInt8, _ factor: CGFloat) -> UInt8 { UInt8((Double(byte) * Double(factor)).rounded()) }
            return DrawColor(red: channel(c.red, color.red), green: channel(c.green, color.green),
                             blue: channel(c.blue, color.blue), alpha: c.alpha)
        }
        for i in items.indices {
            var item = items[i]
            item.background = item.background.map(times)
            item.borderColor = item.borderColor.map(times)
            if let shadow = item.shadow { item.shadow!.color = times(shadow.color) }
            if let fill = item.fill { item.fill!.color = times(fill.color) }
            if let stroke = item.stroke { item.stroke!.color = times(stroke.color) }
            if let text = item.text { item.text!.runs = text.runs.map { run in var r = run; r.color = times(r.color); return r } }
            if item.image != nil {
                let white = DrawColor(red: 255, green: 255, blue: 255)
                let tint = times(item.imageTint ?? white)
                item.imageTint = tint == white ? nil : tint
            }
            if let gradient = item.gradient {
                item.gradient!.stops = gradient.stops.map { .init(offset: $0.offset, color: times($0.color)) }
            }
            items[i] = item
        }
    }
}

extension DrawItem {
    /// Whether the item draws nothing itself (an item kept only for its group).
    var isBlank: Bool {
        background == nil && borderColor == nil && image == nil && text == nil && shadow == nil && gradient == nil
            && fill == nil && stroke == nil && births.isEmpty
    }
}

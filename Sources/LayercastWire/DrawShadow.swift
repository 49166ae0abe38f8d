import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// An item's shadow, quantised: `{"c":"#000000","o":0.5,"dx":0,"dy":3,"r":4}`; the offset is in
/// the item's own coordinates (before `m`).
public struct DrawShadow: Hashable, Sendable {
    public var color: DrawColor
    /// Shadow opacity, 1e-3.
    public var opacity: Double
    public var dx: Double
    public var dy: Double
    /// Blur radius, 1e-2 pt, never negative.
    public var radius: Double

    public init(color: DrawColor, opacity: Double, dx: Double, dy: Double, radius: Double) {
        (self.color, self.opacity, self.dx, self.dy, self.radius) = (color, opacity, dx, dy, radius)
    }

    /// The shadow `props` cast; nil when its opacity or colour's alpha quantise to 0, or a number
    /// is not finite. Opacity is clamped to 0…1.
    init?(_ props: LayerProperties) {
        guard let shadowColor = props.shadowColor else { return nil }
        let opacity = Double(props.shadowOpacity)
        self.init(color: DrawColor(shadowColor), opacity: Quantize.fraction(min(max(opacity, 0), 1)),
                  dx: Quantize.points(Double(props.shadowOffset.width)), dy: Quantize.points(Double(props.shadowOffset.height)),
                  radius: Quantize.points(max(0, Double(props.shadowRadius))))
        guard opacity.isFinite, self.opacity > 0, color.isVisible, dx.isFinite, dy.isFinite, radius.isFinite else { return nil }
    }

    /// The object above as a jansson tree.
    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("c", color.hex)
        object.set("o", opacity)
        object.set("dx", dx)
        object.set("dy", dy)
        object.set("r", radius)
        return object
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        self.init(color: try field.member("c").color(), opacity: try field.member("o").number(),
                  dx: try field.member("dx").number(), dy: try field.member("dy").number(),
                  radius: try field.member("r").number())
    }
}

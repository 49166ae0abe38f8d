import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI

/// One styled run of an item's text, quantised: `{"t":"+8","size":17,"weight":0.4,"c":"#ffffff"}`.
public struct DrawTextRun: Hashable, Sendable {
    public var text: String
    /// Font size, 1e-2 pt, never negative.
    public var size: Double
    /// UIFont.Weight's raw value, 1e-3.
    public var weight: Double
    public var color: DrawColor

    public init(text: String, size: Double, weight: Double = 0, color: DrawColor) {
        (self.text, self.size, self.weight, self.color) = (text, size, weight, color)
    }

    /// `run` quantised; nil when a number is not finite.
    init?(_ run: CATextRun) {
        self.init(text: run.text, size: Quantize.points(max(0, Double(run.fontSize))),
                  weight: Quantize.fraction(Double(run.fontWeight)), color: DrawColor(run.color))
        guard size.isFinite, weight.isFinite else { return nil }
    }

    /// Whether the run shows something: text, a size and a colour that is not transparent.
    var isVisible: Bool { !text.isEmpty && size > 0 && color.isVisible }

    /// The object above as a jansson tree.
    var tree: JSONTree {
        let object = JSONTree.object()
        object.set("t", text)
        object.set("size", size)
        object.set("weight", weight)
        object.set("c", color.hex)
        return object
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        _ = try field.object()
        self.init(text: try field.member("t").string(), size: try field.member("size").number(),
                  weight: try field.member("weight").number(), color: try field.member("c").color())
    }
}

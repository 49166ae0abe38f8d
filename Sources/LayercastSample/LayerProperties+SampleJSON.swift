import Foundation
import LayercastEngine
import LayercastJSON

extension LayerProperties {
    /// A layer's entry as `layercast sample` prints it (docs/sample.md, Output): the common values,
    /// and a shape, gradient or replicator layer's own.
    var sampleJSON: JSONObject {
        var entry: JSONObject = [
            "position": Self.numbers([position.x, position.y]),
            "bounds": Self.numbers([bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height]),
            "anchorPoint": Self.numbers([anchorPoint.x, anchorPoint.y]),
            "opacity": .number(Double(opacity)),
            "zPosition": .number(Double(zPosition)),
            "transform": Self.numbers(transform.components),
            "backgroundColor": Self.numbers((backgroundColor ?? .clear).components),
            "hidden": .bool(isHidden),
            "cornerRadius": .number(Double(cornerRadius)),
            "borderWidth": .number(Double(borderWidth)),
        ]
        if let shape {
            entry["path"] = (shape.path ?? CGPath(elements: [])).sampleJSON
            entry["fillColor"] = Self.numbers((shape.fillColor ?? .clear).components)
            entry["fillRule"] = .string(shape.fillRule == .evenOdd ? "evenOdd" : "nonZero")
            entry["strokeColor"] = Self.numbers((shape.strokeColor ?? .clear).components)
            entry["lineWidth"] = .number(Double(shape.lineWidth))
            entry["lineCap"] = .string(shape.lineCap.rawValue)
            entry["lineJoin"] = .string(shape.lineJoin.rawValue)
            entry["miterLimit"] = .number(Double(shape.miterLimit))
            entry["lineDashPattern"] = Self.numbers(shape.lineDashPattern ?? [])
            entry["lineDashPhase"] = .number(Double(shape.lineDashPhase))
            entry["strokeStart"] = .number(Double(shape.strokeStart))
            entry["strokeEnd"] = .number(Double(shape.strokeEnd))
        }
        if let gradient {
            entry["colors"] = .array((gradient.colors ?? []).map { Self.numbers($0.components) })
            entry["locations"] = Self.numbers(gradient.locations ?? [])
            entry["startPoint"] = Self.numbers([gradient.startPoint.x, gradient.startPoint.y])
            entry["endPoint"] = Self.numbers([gradient.endPoint.x, gradient.endPoint.y])
            entry["gradientType"] = .string(gradient.type.rawValue)
        }
        if let replicator {
            entry["instanceCount"] = .number(Double(replicator.instanceCount))
            entry["instanceDelay"] = .number(replicator.instanceDelay)
            entry["instanceTransform"] = Self.numbers(replicator.instanceTransform.components)
            entry["instanceColor"] = Self.numbers((replicator.instanceColor ?? .white).components)
            entry["instanceRedOffset"] = .number(Double(replicator.instanceRedOffset))
            entry["instanceGreenOffset"] = .number(Double(replicator.instanceGreenOffset))
            entry["instanceBlueOffset"] = .number(Double(replicator.instanceBlueOffset))
            entry["instanceAlphaOffset"] = .number(Double(replicator.instanceAlphaOffset))
            entry["preservesDepth"] = .bool(replicator.preservesDepth)
        }
        return entry
    }

    private static func numbers(_ xs: [CGFloat]) -> JSONValue { .array(xs.map { .number(Double($0)) }) }
}

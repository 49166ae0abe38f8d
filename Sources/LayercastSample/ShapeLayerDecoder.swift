import Foundation
import LayercastEngine
import LayercastJSON

/// Sets a CAShapeLayer's properties from a `shape` LAYER's keys (docs/sample.md).
enum ShapeLayerDecoder {
    static let keys: Set<String> = [
        "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit",
        "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
    ]
    /// The most lengths a `lineDashPattern` may have, and the largest length.
    static let dashCountLimit = 64
    static let dashLengthLimit: Double = 1e6

    static func configure(_ layer: CAShapeLayer, _ r: JSONReader) throws(SampleError) {
        if r.has("path") { layer.path = try CGPath.sample(r.object["path"]!, path: r.fieldPath("path")) }
        if r.object["fillColor"] != nil { layer.fillColor = try optionalColor(r, "fillColor") }
        if r.object["strokeColor"] != nil { layer.strokeColor = try optionalColor(r, "strokeColor") }
        if let name = try r.string("fillRule") {
            let rules = ["nonZero": CAShapeLayerFillRule.nonZero, "evenOdd": .evenOdd]
            guard let rule = rules[name] else { throw SampleError(path: r.fieldPath("fillRule"), message: "unknown fill rule '\(name)' (nonZero, evenOdd)") }
            layer.fillRule = rule
        }
        if let name = try r.string("lineCap") {
            guard [CAShapeLayerLineCap.butt, .round, .square].contains(CAShapeLayerLineCap(rawValue: name)) else {
                throw SampleError(path: r.fieldPath("lineCap"), message: "unknown line cap '\(name)' (butt, round, square)")
            }
            layer.lineCap = CAShapeLayerLineCap(rawValue: name)
        }
        if let name = try r.string("lineJoin") {
            guard [CAShapeLayerLineJoin.miter, .round, .bevel].contains(CAShapeLayerLineJoin(rawValue: name)) else {
                throw SampleError(path: r.fieldPath("lineJoin"), message: "unknown line join '\(name)' (miter, round, bevel)")
            }
            layer.lineJoin = CAShapeLayerLineJoin(rawValue: name)
        }
        if let v = try r.number("lineWidth") { layer.lineWidth = v }
        if let v = try r.number("miterLimit") { layer.miterLimit = v }
        if let v = try r.number("lineDashPhase") { layer.lineDashPhase = v }
        if let v = try r.number("strokeStart") { layer.strokeStart = v }
        if let v = try r.number("strokeEnd") { layer.strokeEnd = v }
        if let lengths = try r.array("lineDashPattern") {
            layer.lineDashPattern = try dashPattern(lengths, path: r.fieldPath("lineDashPattern")).map { NSNumber(value: $0) }
        }
    }

    /// At most `dashCountLimit` lengths in 0…`dashLengthLimit`, not all zero (a renderer would never advance).
    private static func dashPattern(_ items: [JSONValue], path: String) throws(SampleError) -> [Double] {
        guard items.count <= dashCountLimit else {
            throw SampleError(path: path, message: "has \(items.count) lengths, more than \(dashCountLimit)")
        }
        var out: [Double] = []
        for (i, item) in items.enumerated() {
            let x = try JSONReader.number(item, path: "\(path)[\(i)]")
            guard (0...dashLengthLimit).contains(x) else {
                throw SampleError(path: "\(path)[\(i)]", message: "must be a length in 0…1000000")
            }
            out.append(x)
        }
        guard out.isEmpty || out.contains(where: { $0 > 0 }) else {
            throw SampleError(path: path, message: "must have a length greater than 0")
        }
        return out
    }

    /// `[r, g, b, a]`, or null for none.
    static func optionalColor(_ r: JSONReader, _ key: String) throws(SampleError) -> CGColor? {
        guard r.has(key) else { return nil }
        let c = try JSONReader.numbers(r.object[key]!, count: 4, path: r.fieldPath(key))
        return CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
}

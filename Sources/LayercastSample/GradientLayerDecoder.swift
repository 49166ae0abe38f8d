import Foundation
import LayercastEngine
import LayercastJSON

/// Sets a CAGradientLayer's properties from a `gradient` LAYER's keys (docs/sample.md).
enum GradientLayerDecoder {
    static let keys: Set<String> = ["colors", "locations", "startPoint", "endPoint", "gradientType"]

    static func configure(_ layer: CAGradientLayer, _ r: JSONReader) throws(SampleError) {
        if r.has("colors") { layer.colors = try JSONReader.colors(r.object["colors"]!, path: r.fieldPath("colors")) }
        if r.has("locations") {
            layer.locations = try JSONReader.list(r.object["locations"]!, path: r.fieldPath("locations")).map { NSNumber(value: Double($0)) }
        }
        if let p = try r.numbers("startPoint", count: 2) { layer.startPoint = CGPoint(x: p[0], y: p[1]) }
        if let p = try r.numbers("endPoint", count: 2) { layer.endPoint = CGPoint(x: p[0], y: p[1]) }
        if let name = try r.string("gradientType") {
            let known: [CAGradientLayerType] = [.axial, .radial, .conic]
            guard let type = known.first(where: { $0.rawValue == name }) else {
                throw SampleError(path: r.fieldPath("gradientType"), message: "unknown gradient type '\(name)' (axial, radial, conic)")
            }
            layer.type = type
        }
    }
}

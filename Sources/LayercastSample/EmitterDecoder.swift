import Foundation
import LayercastEngine
import LayercastJSON

/// Sets a CAEmitterLayer's emitter properties and builds its CAEmitterCells from their JSON
/// descriptions (an `emitter` LAYER's keys and the CELL objects of docs/sample.md).
enum EmitterDecoder {
    /// The keys an emitter layer takes on top of a layer's.
    static let layerKeys: Set<String> = [
        "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth", "emitterShape", "emitterMode",
        "birthRate", "lifetime", "velocity", "scale", "spin", "seed", "maxParticles", "renderMode", "emitterCells",
    ]

    static let cellKeys: Set<String> = [
        "name", "enabled", "birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange",
        "xAcceleration", "yAcceleration", "zAcceleration", "emissionLongitude", "emissionLatitude", "emissionRange",
        "spin", "spinRange", "scale", "scaleRange", "scaleSpeed", "color", "redRange", "greenRange", "blueRange",
        "alphaRange", "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed", "contents", "beginTime", "duration",
        "emitterCells",
    ]

    /// The most particles a sample may ask an emitter layer for.
    static let maxParticlesLimit = 1_000_000

    static func configure(_ layer: CAEmitterLayer, _ r: JSONReader) throws(SampleError) {
        if let p = try r.numbers("emitterPosition", count: 2) { layer.emitterPosition = CGPoint(x: p[0], y: p[1]) }
        if let v = try r.number("emitterZPosition") { layer.emitterZPosition = v }
        if let s = try r.numbers("emitterSize", count: 2) { layer.emitterSize = CGSize(width: s[0], height: s[1]) }
        if let v = try r.number("emitterDepth") { layer.emitterDepth = v }
        if let v = try choice(r, "emitterShape", [.point, .line, .rectangle, .cuboid, .circle, .sphere] as [CAEmitterLayerEmitterShape]) {
            layer.emitterShape = v
        }
        if let v = try choice(r, "emitterMode", [.points, .outline, .surface, .volume] as [CAEmitterLayerEmitterMode]) {
            layer.emitterMode = v
        }
        if let v = try r.float("birthRate") { layer.birthRate = v }
        if let v = try r.float("lifetime") { layer.lifetime = v }
        if let v = try r.float("velocity") { layer.velocity = v }
        if let v = try r.float("scale") { layer.scale = v }
        if let v = try r.float("spin") { layer.spin = v }
        if let v = try r.integer("seed", in: 0...Int(UInt32.max)) { layer.seed = UInt32(v) }
        if let v = try r.integer("maxParticles", in: 0...maxParticlesLimit) { layer.maxParticles = v }
        if let v = try choice(r, "renderMode", [.unordered, .oldestFirst, .oldestLast, .backToFront, .additive] as [CAEmitterLayerRenderMode]) {
            layer.renderMode = v
        }
        if let cells = try cells(r) { layer.emitterCells = cells }
    }

    /// The `emitterCells` of a layer or cell, nil when absent.
    private static func cells(_ r: JSONReader) throws(SampleError) -> [CAEmitterCell]? {
        guard let items = try r.array("emitterCells") else { return nil }
        var cells: [CAEmitterCell] = []
        for (i, item) in items.enumerated() {
            cells.append(try cell(item, path: "\(r.fieldPath("emitterCells"))[\(i)]"))
        }
        return cells
    }

    private static func cell(_ json: JSONValue, path: String) throws(SampleError) -> CAEmitterCell {
        let r = try JSONReader(json, path: path)
        try r.requireOnly(cellKeys, what: "emitter cell")
        let cell = CAEmitterCell()
        cell.name = try r.string("name")
        if let v = try r.bool("enabled") { cell.isEnabled = v }
        if let v = try r.float("birthRate") { cell.birthRate = v }
        if let v = try r.float("lifetime") { cell.lifetime = v }
        if let v = try r.float("lifetimeRange") { cell.lifetimeRange = v }
        if let v = try r.number("velocity") { cell.velocity = v }
        if let v = try r.number("velocityRange") { cell.velocityRange = v }
        if let v = try r.number("xAcceleration") { cell.xAcceleration = v }
        if let v = try r.number("yAcceleration") { cell.yAcceleration = v }
        if let v = try r.number("zAcceleration") { cell.zAcceleration = v }
        if let v = try r.number("emissionLongitude") { cell.emissionLongitude = v }
        if let v = try r.number("emissionLatitude") { cell.emissionLatitude = v }
        if let v = try r.number("emissionRange") { cell.emissionRange = v }
        if let v = try r.number("spin") { cell.spin = v }
        if let v = try r.number("spinRange") { cell.spinRange = v }
        if let v = try r.number("scale") { cell.scale = v }
        if let v = try r.number("scaleRange") { cell.scaleRange = v }
        if let v = try r.number("scaleSpeed") { cell.scaleSpeed = v }
        if let json = r.object["color"] {
            // null is a nil colour: opaque white.
            if json.isNull { cell.color = nil } else {
                cell.color = try JSONReader.value(json, kind: .color, path: r.fieldPath("color")) as? CGColor
            }
        }
        if let v = try r.float("redRange") { cell.redRange = v }
        if let v = try r.float("greenRange") { cell.greenRange = v }
        if let v = try r.float("blueRange") { cell.blueRange = v }
        if let v = try r.float("alphaRange") { cell.alphaRange = v }
        if let v = try r.float("redSpeed") { cell.redSpeed = v }
        if let v = try r.float("greenSpeed") { cell.greenSpeed = v }
        if let v = try r.float("blueSpeed") { cell.blueSpeed = v }
        if let v = try r.float("alphaSpeed") { cell.alphaSpeed = v }
        if let v = r.object["contents"] {
            cell.contents = try JSONReader.value(v, kind: .image, path: r.fieldPath("contents")) as? CGImage
        }
        if let v = try r.number("beginTime") { cell.beginTime = v }
        if let v = try r.number("duration") {
            guard v >= 0 else { throw SampleError(path: r.fieldPath("duration"), message: "must not be negative") }
            cell.duration = v
        }
        cell.emitterCells = try cells(r)
        return cell
    }

    /// One of the engine's named constants, by its raw value; the error lists them.
    private static func choice<T: RawRepresentable>(_ r: JSONReader, _ key: String, _ known: [T]) throws(SampleError) -> T?
    where T.RawValue == String {
        guard let name = try r.string(key) else { return nil }
        guard let value = known.first(where: { $0.rawValue == name }) else {
            let names = known.map(\.rawValue).joined(separator: ", ")
            throw SampleError(path: r.fieldPath(key), message: "unknown \(key) '\(name)' (\(names))")
        }
        return value
    }
}

import Foundation
import LayercastEngine
import LayercastJSON

/// A decoded `layercast sample` input: the layer tree (animations attached at media time 0),
/// the times to sample and the hit tests to run.
public struct SampleScene {
    public let root: CALayer
    /// Every layer with its name, in tree order.
    public let namedLayers: [(name: String, layer: CALayer)]
    public let times: [Double]
    public let hitTests: [(time: Double, point: CGPoint)]

    /// Decodes and validates a document; the error names the offending path.
    public init(json: JSONValue) throws(SampleError) {
        let top = try JSONReader(json, path: "input")
        try top.requireOnly(["root", "times", "hitTests"], what: "input")
        guard let rootJSON = top.object["root"] else { throw SampleError(path: "root", message: "missing") }
        var decoder = LayerDecoder()
        let context = SceneContext(clock: ManualClock(now: 0))
        var root: CALayer?
        var failure: SampleError?
        context.run {
            do throws(SampleError) {
                root = try decoder.layer(rootJSON, path: "root")
                try decoder.addAnimations()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        self.root = root!
        self.namedLayers = decoder.named

        var times: [Double] = []
        for (i, t) in (try top.array("times") ?? []).enumerated() {
            times.append(try JSONReader.number(t, path: "times[\(i)]"))
        }
        self.times = times
        for (path, emitter) in decoder.emitters {
            try EmitterLimits.check(emitter, path: path, times: times)
        }

        var hits: [(Double, CGPoint)] = []
        for (i, item) in (try top.array("hitTests") ?? []).enumerated() {
            let r = try JSONReader(item, path: "hitTests[\(i)]")
            try r.requireOnly(["time", "point"], what: "hit test")
            guard let time = try r.number("time") else { throw SampleError(path: r.fieldPath("time"), message: "missing") }
            guard let p = try r.numbers("point", count: 2) else { throw SampleError(path: r.fieldPath("point"), message: "missing") }
            hits.append((time, CGPoint(x: p[0], y: p[1])))
        }
        self.hitTests = hits
    }
}

/// Builds layers and animations from their JSON descriptions.
private struct LayerDecoder {
    var named: [(name: String, layer: CALayer)] = []
    /// The emitter layers with their paths, in tree order.
    var emitters: [(path: String, layer: CAEmitterLayer)] = []
    private var names: Set<String> = []
    /// Animations wait until the whole tree is built: "beginTime 0 means now" resolves against
    /// the layer's local time, which depends on its ancestors' timing.
    private var pending: [(layer: CALayer, animation: CAAnimation, key: String?)] = []

    static let layerKeys = Set<String>([
        "name", "type", "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform",
        "opacity", "hidden", "doubleSided", "masksToBounds", "backgroundColor", "borderColor", "borderWidth",
        "cornerRadius", "beginTime", "speed", "timeOffset", "sublayers", "animations",
        "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "contents", "string", "fontSize", "mask",
    ]).union(EmitterDecoder.layerKeys).union(ShapeLayerDecoder.keys).union(GradientLayerDecoder.keys)
        .union(ReplicatorLayerDecoder.keys)

    /// The keys only one type of layer takes, with that type's name.
    static let typeKeys: [(type: String, keys: Set<String>)] = [
        ("emitter", EmitterDecoder.layerKeys), ("shape", ShapeLayerDecoder.keys),
        ("gradient", GradientLayerDecoder.keys), ("replicator", ReplicatorLayerDecoder.keys),
    ]

    mutating func layer(_ json: JSONValue, path: String) throws(SampleError) -> CALayer {
        let r = try JSONReader(json, path: path)
        try r.requireOnly(Self.layerKeys, what: "layer")
        let layer: CALayer
        let type = try r.string("type") ?? "layer"
        switch type {
        case "layer": layer = CALayer()
        case "transformLayer": layer = CATransformLayer()
        case "text":
            let text = CATextLayer()
            text.string = try r.string("string")
            if let size = try r.number("fontSize") { text.fontSize = size }
            layer = text
        case "emitter":
            let emitter = CAEmitterLayer()
            try EmitterDecoder.configure(emitter, r)
            emitters.append((path, emitter))
            layer = emitter
        case "shape":
            let shape = CAShapeLayer()
            try ShapeLayerDecoder.configure(shape, r)
            layer = shape
        case "gradient":
            let gradient = CAGradientLayer()
            try GradientLayerDecoder.configure(gradient, r)
            layer = gradient
        case "replicator":
            let replicator = CAReplicatorLayer()
            try ReplicatorLayerDecoder.configure(replicator, r)
            layer = replicator
        case let other:
            throw SampleError(path: r.fieldPath("type"),
                              message: "unknown layer type '\(other)' (layer, transformLayer, text, emitter, shape, gradient, replicator)")
        }
        for (owner, keys) in Self.typeKeys where owner != type {
            if let key = r.object.keys.first(where: keys.contains) {
                throw SampleError(path: r.fieldPath(key), message: "only \(owner) layers have this property")
            }
        }

        let name = try r.string("name") ?? path
        guard names.insert(name).inserted else { throw SampleError(path: r.fieldPath("name"), message: "'\(name)' is used by another layer") }
        layer.name = name
        named.append((name, layer))

        func value(_ key: String, _ property: LayerProperty) throws(SampleError) -> Any? {
            guard r.has(key) else { return nil }
            return try JSONReader.value(r.object[key]!, kind: property.kind, path: r.fieldPath(key))
        }
        if let v = try value("bounds", .bounds) as? CGRect { layer.bounds = v }
        if let v = try value("position", .position) as? CGPoint { layer.position = v }
        if let v = try value("anchorPoint", .anchorPoint) as? CGPoint { layer.anchorPoint = v }
        if let v = try r.number("anchorPointZ") { layer.anchorPointZ = v }
        if let v = try r.number("zPosition") { layer.zPosition = v }
        if let v = try value("transform", .transform) as? CATransform3D { layer.transform = v }
        if let v = try value("sublayerTransform", .sublayerTransform) as? CATransform3D { layer.sublayerTransform = v }
        if let v = try r.number("opacity") { layer.opacity = Float(v) }
        if let v = try r.bool("hidden") { layer.isHidden = v }
        if let v = try r.bool("doubleSided") { layer.isDoubleSided = v }
        if let v = try r.bool("masksToBounds") { layer.masksToBounds = v }
        if let v = try value("backgroundColor", .backgroundColor) as? CGColor { layer.backgroundColor = v }
        if let v = try value("borderColor", .borderColor) as? CGColor { layer.borderColor = v }
        if let v = try r.number("borderWidth") { layer.borderWidth = v }
        if let v = try r.number("cornerRadius") { layer.cornerRadius = v }
        if let v = try value("shadowColor", .shadowColor) as? CGColor { layer.shadowColor = v }
        if let v = try r.number("shadowOpacity") { layer.shadowOpacity = Float(v) }
        if let v = try value("shadowOffset", .shadowOffset) as? CGSize { layer.shadowOffset = v }
        if let v = try r.number("shadowRadius") { layer.shadowRadius = v }
        if let v = try value("contents", .contents) as? CGImage { layer.contents = v }
        if let v = try r.number("beginTime") { layer.beginTime = v }
        if let v = try r.number("speed") { layer.speed = Float(v) }
        if let v = try r.number("timeOffset") { layer.timeOffset = v }

        if r.has("mask") { layer.mask = try self.layer(r.object["mask"]!, path: r.fieldPath("mask")) }
        for (i, child) in (try r.array("sublayers") ?? []).enumerated() {
            layer.addSublayer(try self.layer(child, path: "\(r.fieldPath("sublayers"))[\(i)]"))
        }
        for (i, item) in (try r.array("animations") ?? []).enumerated() {
            let animPath = "\(r.fieldPath("animations"))[\(i)]"
            let animation = try AnimationDecoder.animation(item, path: animPath)
            try Self.check(animation, on: layer, path: animPath)
            pending.append((layer, animation, try JSONReader(item, path: animPath).string("key")))
        }
        return layer
    }

    /// Fails, naming the field, when `layer` cannot run the animation: a bad timing value, or a key
    /// path of another layer class, in it or in a group's child (docs/engine-model.md §11).
    private static func check(_ animation: CAAnimation, on layer: CALayer, path: String) throws(SampleError) {
        guard let problem = animation.validationError(for: layer) else { return }
        throw SampleError(path: "\(path).\(problem.prefix { $0 != ":" })", message: String(problem.drop { $0 != ":" }.dropFirst(2)))
    }

    /// Adds every decoded animation, in document order, at the context's current time.
    func addAnimations() throws(SampleError) {
        for (layer, animation, key) in pending { layer.add(animation, forKey: key) }
    }
}

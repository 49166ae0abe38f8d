import Foundation
import LayercastEngine
import LayercastJSON
import LayercastWire

/// `layercast sample`: evaluates a scene description and returns the presentation values at
/// each requested time and the result of each hit test, as the documented JSON output.
public enum SampleRunner {
    /// Runs a whole document given as text; throws a SampleError naming the offending path.
    /// With `frames`, each sample also holds the full `frame` message the server would send of
    /// the tree at that time (docs/sample.md, Output).
    public static func run(_ text: String, frames: Bool = false) throws(SampleError) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            let path = JSONPathLocator.path(in: text, at: error.position) ?? "input"
            throw SampleError(path: path, message: "malformed JSON: \(error)")
        }
        return run(try SampleScene(json: json), frames: frames)
    }

    /// Samples a decoded scene; with `frames`, each sample holds its `frame` message too.
    public static func run(_ scene: SampleScene, frames: Bool = false) -> JSONValue {
        var samples: [JSONValue] = []
        let builder = DisplayListBuilder()
        for (index, t) in scene.times.enumerated() {
            var layers: [(String, JSONValue)] = []
            let byLayer = presented(scene, at: t)
            for (name, layer) in scene.namedLayers {
                guard let props = byLayer[ObjectIdentifier(layer)] else { continue }
                var entry = props.sampleJSON
                if let emitter = layer as? CAEmitterLayer {
                    let particles = emitter.particles(at: emitter.localTime(atMedia: t))
                    entry["particles"] = .array(particles.map(\.sampleJSON))
                }
                if let replicator = layer as? CAReplicatorLayer, let values = props.replicator {
                    let count = min(values.instanceCount, ReplicatorLayerDecoder.listedCopies)
                    entry["instances"] = .array(count < 2 ? [] : (1..<count).map { k in
                        copy(k, of: replicator, values.instance(k, bounds: props.bounds), at: t)
                    })
                }
                layers.append((name, .object(entry)))
            }
            var sample: [(String, JSONValue)] = [("time", .number(t)), ("layers", .object(JSONObject(layers)))]
            if frames {
                sample.append(("frame", FrameMessage.full(builder.build(scene.root, at: t), number: index + 1, time: t)))
            }
            samples.append(.object(JSONObject(sample)))
        }
        var hits: [JSONValue] = []
        for (time, point) in scene.hitTests {
            let hit = time < 0 ? scene.root.hitTest(point) : scene.root.hitTest(point, at: time)
            hits.append(.object([
                "time": .number(time),
                "point": [.number(Double(point.x)), .number(Double(point.y))],
                "layer": hit?.name.map(JSONValue.string) ?? .null,
            ]))
        }
        return .object(["samples": .array(samples), "hits": .array(hits)])
    }

    /// Every layer's values at media time `t`, masks included: before 0, when no animation is
    /// attached yet, the model values.
    private static func presented(_ scene: SampleScene, at t: Double) -> [ObjectIdentifier: LayerProperties] {
        var byLayer: [ObjectIdentifier: LayerProperties] = [:]
        if t < 0 {
            for (_, layer) in scene.namedLayers { byLayer[ObjectIdentifier(layer)] = layer.properties }
            return byLayer
        }
        scene.root.forEachPresented(at: t) { layer, props in byLayer[ObjectIdentifier(layer)] = props }
        for (_, layer) in scene.namedLayers {
            layer.mask?.forEachPresented(at: t) { layer, props in byLayer[ObjectIdentifier(layer)] = props }
        }
        return byLayer
    }

    /// Copy `k` of a replicator's sublayers (docs/sample.md, Output): how it is drawn and its layers'
    /// values, shifted in time by the copy's delay.
    private static func copy(_ k: Int, of replicator: CAReplicatorLayer, _ instance: ReplicatorInstance, at t: Double) -> JSONValue {
        var layers: [(String, JSONValue)] = []
        if t < 0 {
            func visit(_ layer: CALayer) {
                layers.append((layer.name ?? "", .object(layer.properties.sampleJSON)))
                for child in layer.sublayers ?? [] { visit(child) }
            }
            for child in replicator.sublayers ?? [] { visit(child) }
        } else {
            replicator.forEachPresentedCopy(k, at: t) { layer, props in layers.append((layer.name ?? "", .object(props.sampleJSON))) }
        }
        return .object([
            "index": .number(Double(k)),
            "transform": .array(instance.transform.components.map { .number(Double($0)) }),
            "color": .array(instance.color.components.map { .number(Double($0)) }),
            "timeShift": .number(instance.timeShift),
            "layers": .object(JSONObject(layers)),
        ])
    }
}

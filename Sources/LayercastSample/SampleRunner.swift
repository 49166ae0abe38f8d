import Foundation
import LayercastEngine
import LayercastJSON

/// `layercast sample`: evaluates a scene description and returns the presentation values at
/// each requested time and the result of each hit test, as the documented JSON output.
public enum SampleRunner {
    /// Runs a whole document given as text; throws a SampleError naming the offending path.
    public static func run(_ text: String) throws(SampleError) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            let path = JSONPathLocator.path(in: text, at: error.position) ?? "input"
            throw SampleError(path: path, message: "malformed JSON: \(error)")
        }
        return run(try SampleScene(json: json))
    }

    public static func run(_ scene: SampleScene) -> JSONValue {
        var samples: [JSONValue] = []
        for t in scene.times {
            var layers: [(String, JSONValue)] = []
            var byLayer: [ObjectIdentifier: LayerProperties] = [:]
            if t < 0 {
                // The animations are added at media time 0: before that only the model exists.
                for (_, layer) in scene.namedLayers { byLayer[ObjectIdentifier(layer)] = layer.properties }
            } else {
                scene.root.forEachPresented(at: t) { layer, props in byLayer[ObjectIdentifier(layer)] = props }
            }
            for (name, layer) in scene.namedLayers {
                guard let props = byLayer[ObjectIdentifier(layer)] else { continue }
                var entry = encode(props)
                if let emitter = layer as? CAEmitterLayer {
                    let particles = emitter.particles(at: emitter.localTime(atMedia: t))
                    entry["particles"] = .array(particles.map(\.sampleJSON))
                }
                layers.append((name, .object(entry)))
            }
            samples.append(.object(["time": .number(t), "layers": .object(JSONObject(layers))]))
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

    private static func encode(_ p: LayerProperties) -> JSONObject {
        func numbers(_ xs: [CGFloat]) -> JSONValue { .array(xs.map { .number(Double($0)) }) }
        let bg = p.backgroundColor ?? .clear
        return [
            "position": numbers([p.position.x, p.position.y]),
            "bounds": numbers([p.bounds.origin.x, p.bounds.origin.y, p.bounds.size.width, p.bounds.size.height]),
            "anchorPoint": numbers([p.anchorPoint.x, p.anchorPoint.y]),
            "opacity": .number(Double(p.opacity)),
            "zPosition": .number(Double(p.zPosition)),
            "transform": numbers(p.transform.components),
            "backgroundColor": numbers(bg.components),
            "hidden": .bool(p.isHidden),
            "cornerRadius": .number(Double(p.cornerRadius)),
            "borderWidth": .number(Double(p.borderWidth)),
        ]
    }
}

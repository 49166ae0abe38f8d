import Foundation
import LayercastEngine
import LayercastJSON

extension EmitterParticle {
    /// The particle as `layercast sample` prints it (docs/sample.md): the id as a decimal string,
    /// since a JSON number would lose its low digits.
    var sampleJSON: JSONValue {
        func numbers(_ xs: [CGFloat]) -> JSONValue { .array(xs.map { .number(Double($0)) }) }
        return .object([
            "id": .string(String(id)),
            "cellName": cellName.map(JSONValue.string) ?? .null,
            "cellPath": .array(cellPath.map { .number(Double($0)) }),
            "contents": .string(contents.name),
            "position": numbers([position.x, position.y]),
            "zPosition": .number(Double(zPosition)),
            "scale": .number(Double(scale)),
            "rotation": .number(Double(rotation)),
            "color": numbers(color.components),
            "birthTime": .number(birthTime),
            "age": .number(age),
            "lifetime": .number(lifetime),
        ])
    }
}

import Foundation
import LayercastEngine
import LayercastJSON

/// Sets a CAReplicatorLayer's properties from a `replicator` LAYER's keys (docs/sample.md).
enum ReplicatorLayerDecoder {
    static let keys: Set<String> = [
        "instanceCount", "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset",
        "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "preservesDepth",
    ]
    /// The largest `instanceCount` a document may set.
    static let countLimit = 10_000
    /// The most copies an output lists per replicator (copies 1 … min(instanceCount, this) − 1).
    static let listedCopies = 100

    static func configure(_ layer: CAReplicatorLayer, _ r: JSONReader) throws(SampleError) {
        if let n = try r.integer("instanceCount", in: 0...countLimit) { layer.instanceCount = n }
        if let v = try r.number("instanceDelay") { layer.instanceDelay = v }
        if let m = try r.numbers("instanceTransform", count: 16) { layer.instanceTransform = CATransform3D(components: m) }
        if r.object["instanceColor"] != nil { layer.instanceColor = try ShapeLayerDecoder.optionalColor(r, "instanceColor") }
        if let v = try r.float("instanceRedOffset") { layer.instanceRedOffset = v }
        if let v = try r.float("instanceGreenOffset") { layer.instanceGreenOffset = v }
        if let v = try r.float("instanceBlueOffset") { layer.instanceBlueOffset = v }
        if let v = try r.float("instanceAlphaOffset") { layer.instanceAlphaOffset = v }
        if let v = try r.bool("preservesDepth") { layer.preservesDepth = v }
    }
}

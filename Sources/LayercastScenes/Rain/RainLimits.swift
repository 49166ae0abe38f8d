import LayercastJSON
import LayercastSceneAPI

/// A rain's per-player limits as its start's answer and its `rain` events show them
/// (docs/protocol.md, "Limits per player").
extension RainSettings {
    /// `{"maxAwardsPerPlayer":n,"maxCoinsPerPlayer":n,"minVisible":s,"tapRate":r}`.
    var limitsJSON: JSONValue {
        ["maxAwardsPerPlayer": .number(Double(maxAwardsPerPlayer)), "maxCoinsPerPlayer": .number(Double(maxCoinsPerPlayer)),
         "minVisible": .number(minVisible), "tapRate": .number(tapRate)]
    }
}

import Foundation
import LayercastEngine

/// The bounds a sample puts on an emitter layer so that evaluating it stays small and its birth
/// counts stay exact integers (docs/sample.md, Errors): local times within ±1e9 s, cell rates up
/// to 1e6 per second, and at most 1e6 births to evaluate over all the sampled times.
enum EmitterLimits {
    static let maxLocalTime = 1e9
    static let maxRate = 1e6
    static let maxBirths = 1e6

    /// Checks the emitter layer found at `path`, sampled at media `times`.
    static func check(_ layer: CAEmitterLayer, path: String, times: [Double]) throws(SampleError) {
        guard abs(layer.localTime(atMedia: 0)) <= maxLocalTime else {
            throw SampleError(path: path, message: "local time at media time 0 is beyond ±1e9 s")
        }
        let cells = layer.emitterCells ?? []
        try checkRates(cells, layer: layer, path: "\(path).emitterCells")
        for (i, t) in times.enumerated() where !(abs(layer.localTime(atMedia: t)) <= maxLocalTime) {
            throw SampleError(path: "times[\(i)]", message: "the emitter layer \(path) is at a local time beyond ±1e9 s")
        }
        guard !times.isEmpty else { return }
        let births = cells.map { bound($0, layer: layer, window: nil) }.reduce(0, +) * Double(times.count)
        guard births <= maxBirths else {
            throw SampleError(path: "\(path).emitterCells",
                              message: "could need \(births) births evaluated over the sampled times, more than 1000000")
        }
    }

    private static func checkRates(_ cells: [CAEmitterCell], layer: CAEmitterLayer, path: String) throws(SampleError) {
        for (i, cell) in cells.enumerated() {
            let cellPath = "\(path)[\(i)]"
            guard rate(cell, layer: layer) <= maxRate else {
                throw SampleError(path: "\(cellPath).birthRate", message: "birthRate × the layer's birthRate exceeds 1000000 per second")
            }
            try checkRates(cell.emitterCells ?? [], layer: layer, path: "\(cellPath).emitterCells")
        }
    }

    /// Births per second per source: 0 when disabled or negative.
    private static func rate(_ cell: CAEmitterCell, layer: CAEmitterLayer) -> Double {
        cell.isEnabled ? max(0, Double(cell.birthRate) * Double(layer.birthRate)) : 0
    }

    /// The longest lifetime of the cell's particles.
    private static func longestLifetime(_ cell: CAEmitterCell, layer: CAEmitterLayer) -> Double {
        max(0, Double(layer.lifetime) * (Double(cell.lifetime) + abs(Double(cell.lifetimeRange)) / 2))
    }

    /// How long after its birth a particle of the cell, or one of its descendants, can be alive.
    private static func reach(_ cell: CAEmitterCell, layer: CAEmitterLayer) -> Double {
        longestLifetime(cell, layer: layer) + ((cell.emitterCells ?? []).map { reach($0, layer: layer) }.max() ?? 0)
    }

    /// The births of `cell`, and of its descendants, that one evaluation can visit per source:
    /// those in a stretch of its reach (a layer's cell) or of its parent's life (`window`).
    private static func bound(_ cell: CAEmitterCell, layer: CAEmitterLayer, window: Double?) -> Double {
        let r = rate(cell, layer: layer)
        guard r > 0 else { return 0 }
        let reach = reach(cell, layer: layer)
        let span = window.map { min(reach, $0 + max(0, -cell.beginTime)) } ?? reach
        let lifetime = longestLifetime(cell, layer: layer)
        let children = (cell.emitterCells ?? []).map { bound($0, layer: layer, window: lifetime) }.reduce(0, +)
        return (r * span + 1) * (1 + children)
    }
}

import Foundation

/// A stretch of layer time from `start` in which a cell's and its layer's parameters are constant.
struct EmitterCellPeriod {
    var start: CFTimeInterval
    var layer: EmitterLayerParameters
    var cell: EmitterCellParameters

    /// Births per second per source: cell.birthRate × layer.birthRate, 0 when disabled or negative.
    var rate: Double {
        cell.isEnabled ? max(0, Double(cell.birthRate) * Double(layer.birthRate)) : 0
    }

    /// The periods of a cell from two histories in layer time (each sorted by time); the first
    /// period reaches back to −∞ with the oldest values.
    static func periods(layer: [(time: CFTimeInterval, value: EmitterLayerParameters)],
                        cell: [(time: CFTimeInterval, value: EmitterCellParameters)]) -> [EmitterCellPeriod] {
        let starts = Set(layer.map(\.time) + cell.map(\.time)).sorted()
        return starts.enumerated().map { i, start in
            EmitterCellPeriod(start: i == 0 ? -.infinity : start, layer: value(layer, at: start), cell: value(cell, at: start))
        }
    }

    /// The value in effect at `t`: the last change at or before it, else the oldest.
    private static func value<V>(_ changes: [(time: CFTimeInterval, value: V)], at t: CFTimeInterval) -> V {
        (changes.last { $0.time <= t } ?? changes[0]).value
    }
}

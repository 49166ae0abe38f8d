import Foundation

/// A stretch of layer time from `start` in which a cell's and its layer's recorded parameters are
/// constant and the cell is born at a constant `rate`.
struct EmitterCellPeriod {
    var start: CFTimeInterval
    var layer: EmitterLayerParameters
    var cell: EmitterCellParameters
    /// Births per second per source.
    var rate: Double

    init(start: CFTimeInterval, layer: EmitterLayerParameters, cell: EmitterCellParameters) {
        self.init(start: start, layer: layer, cell: cell, rate: Self.rate(layer: layer, cell: cell))
    }

    init(start: CFTimeInterval, layer: EmitterLayerParameters, cell: EmitterCellParameters, rate: Double) {
        self.start = start
        self.layer = layer
        self.cell = cell
        self.rate = rate
    }

    /// Births per second per source: cell.birthRate × layer.birthRate, 0 when disabled or negative.
    static func rate(layer: EmitterLayerParameters, cell: EmitterCellParameters) -> Double {
        cell.isEnabled ? max(0, Double(cell.birthRate) * Double(layer.birthRate)) : 0
    }

    /// The longest a particle born with these values can live.
    static func longestLifetime(layer: EmitterLayerParameters, cell: EmitterCellParameters) -> Double {
        // In doubles, as lifetimes are drawn: a Float sum may round below the longest one.
        max(0, Double(layer.lifetime) * (Double(cell.lifetime) + abs(Double(cell.lifetimeRange)) / 2))
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

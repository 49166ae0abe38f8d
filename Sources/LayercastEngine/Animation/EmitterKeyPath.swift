import Foundation

/// An animatable emitter value: one of a CAEmitterLayer's own (`birthRate`, `emitterPosition`…) or one
/// of a CAEmitterCell's (`emitterCells.NAME.birthRate`), named as Apple marks them "Animatable".
public enum EmitterParameter: String, CaseIterable, Sendable {
    // Both the layer (as multipliers) and cells.
    /// Values the layer and its cells both have; the layer's multiply its cells' (docs/engine-model.md §9).
    case birthRate, lifetime, velocity, scale, spin
    // The layer only.
    /// The layer's emitter centre, depth position and size.
    case emitterPosition, emitterZPosition, emitterSize
    // Cells only.
    /// A cell's lifetime spread, emission direction and cone, and speed spread.
    case lifetimeRange, emissionLatitude, emissionLongitude, emissionRange, velocityRange
    /// A cell's acceleration per axis and the spread and rate of change of its scale and spin.
    case xAcceleration, yAcceleration, zAcceleration, scaleRange, scaleSpeed, spinRange
    /// A cell's colour and the spread and rate of change of each colour component.
    case color, redRange, greenRange, blueRange, alphaRange, redSpeed, greenSpeed, blueSpeed, alphaSpeed
    /// A cell's particle image.
    case contents

    /// Whether a CAEmitterLayer has it as its own property.
    public var isLayerParameter: Bool {
        switch self {
        case .birthRate, .lifetime, .velocity, .scale, .spin, .emitterPosition, .emitterZPosition, .emitterSize: true
        default: false
        }
    }

    /// Whether a CAEmitterCell has it.
    public var isCellParameter: Bool {
        switch self {
        case .emitterPosition, .emitterZPosition, .emitterSize: false
        default: true
        }
    }

    /// The kind of value the whole parameter holds.
    public var kind: AnimatableValueKind {
        switch self {
        case .emitterPosition: .point
        case .emitterSize: .size
        case .color: .color
        case .contents: .image
        default: .scalar
        }
    }
}

/// A parsed emitter key path (docs/engine-model.md §9.7): `emitterCells.A(.emitterCells.B)*.PARAMETER`
/// for a cell found by name, or a layer parameter (`emitterPosition`, `emitterPosition.x`, `birthRate`…).
public struct EmitterKeyPath: Hashable, Sendable {
    /// The names of the cells from the layer's `emitterCells` down; empty for the layer's own parameter.
    public let cellNames: [String]
    /// The value the key path ends with.
    public let parameter: EmitterParameter
    /// `.x` or `.y` of `emitterPosition`, else the whole value.
    public let component: AnimationKeyPath.Component

    /// Parses a key path; nil when it names no animatable emitter value.
    public init?(_ string: String) {
        var parts = string.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var names: [String] = []
        while parts.count >= 3, parts[0] == "emitterCells" {
            guard !parts[1].isEmpty else { return nil }
            names.append(parts[1])
            parts.removeFirst(2)
        }
        guard let first = parts.first, let parameter = EmitterParameter(rawValue: first) else { return nil }
        guard names.isEmpty ? parameter.isLayerParameter : parameter.isCellParameter else { return nil }
        switch (parameter, parts.count, parts.last) {
        case (_, 1, _): component = .whole
        case (.emitterPosition, 2, "x"): component = .x
        case (.emitterPosition, 2, "y"): component = .y
        default: return nil
        }
        cellNames = names
        self.parameter = parameter
    }

    /// The kind of value an animation on this key path takes.
    public var valueKind: AnimatableValueKind {
        component == .whole ? parameter.kind : .scalar
    }

    /// Reads the addressed part of the parameter's value.
    func extract(from whole: AnimatableValue) -> AnimatableValue {
        switch (component, whole) {
        case (.x, .point(let p)): .scalar(p.x)
        case (.y, .point(let p)): .scalar(p.y)
        default: whole
        }
    }

    /// Folds a value of `valueKind` into the parameter's value.
    func compose(_ part: AnimatableValue, into whole: AnimatableValue) -> AnimatableValue {
        switch (component, whole, part) {
        case (.whole, _, _): return part
        case (.x, .point(var p), .scalar(let v)): p.x = v; return .point(p)
        case (.y, .point(var p), .scalar(let v)): p.y = v; return .point(p)
        default: return whole
        }
    }
}

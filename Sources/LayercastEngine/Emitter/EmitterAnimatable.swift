import Foundation

/// Emitter values an animation can drive by `EmitterParameter` (docs/engine-model.md §9.7): a layer's
/// own parameters or a cell's. Reading a parameter the values do not have gives nil; setting it does
/// nothing. `Float` properties round an animated value to single precision, as an assignment does.
protocol EmitterAnimatable {
    subscript(parameter: EmitterParameter) -> AnimatableValue? { get set }
}

extension EmitterLayerParameters: EmitterAnimatable {
    subscript(parameter: EmitterParameter) -> AnimatableValue? {
        get {
            switch parameter {
            case .emitterPosition: .point(emitterPosition)
            case .emitterZPosition: .scalar(emitterZPosition)
            case .emitterSize: .size(emitterSize)
            case .birthRate: .scalar(CGFloat(birthRate))
            case .lifetime: .scalar(CGFloat(lifetime))
            case .velocity: .scalar(CGFloat(velocity))
            case .scale: .scalar(CGFloat(scale))
            case .spin: .scalar(CGFloat(spin))
            default: nil
            }
        }
        set {
            switch (parameter, newValue) {
            case (.emitterPosition, .point(let p)?): emitterPosition = p
            case (.emitterZPosition, .scalar(let x)?): emitterZPosition = x
            case (.emitterSize, .size(let s)?): emitterSize = s
            case (.birthRate, .scalar(let x)?): birthRate = Float(x)
            case (.lifetime, .scalar(let x)?): lifetime = Float(x)
            case (.velocity, .scalar(let x)?): velocity = Float(x)
            case (.scale, .scalar(let x)?): scale = Float(x)
            case (.spin, .scalar(let x)?): spin = Float(x)
            default: break
            }
        }
    }
}

extension EmitterCellParameters: EmitterAnimatable {
    /// The `Float` property for `parameter` (an animated value is rounded to it), if it is one.
    private static func floatPath(_ parameter: EmitterParameter) -> WritableKeyPath<EmitterCellParameters, Float>? {
        switch parameter {
        case .birthRate: \.birthRate
        case .lifetime: \.lifetime
        case .lifetimeRange: \.lifetimeRange
        case .redRange: \.redRange
        case .greenRange: \.greenRange
        case .blueRange: \.blueRange
        case .alphaRange: \.alphaRange
        case .redSpeed: \.redSpeed
        case .greenSpeed: \.greenSpeed
        case .blueSpeed: \.blueSpeed
        case .alphaSpeed: \.alphaSpeed
        default: nil
        }
    }

    /// The `CGFloat` property for `parameter`, if it is one.
    private static func cgFloatPath(_ parameter: EmitterParameter) -> WritableKeyPath<EmitterCellParameters, CGFloat>? {
        switch parameter {
        case .emissionLatitude: \.emissionLatitude
        case .emissionLongitude: \.emissionLongitude
        case .emissionRange: \.emissionRange
        case .velocity: \.velocity
        case .velocityRange: \.velocityRange
        case .xAcceleration: \.xAcceleration
        case .yAcceleration: \.yAcceleration
        case .zAcceleration: \.zAcceleration
        case .scale: \.scale
        case .scaleRange: \.scaleRange
        case .scaleSpeed: \.scaleSpeed
        case .spin: \.spin
        case .spinRange: \.spinRange
        default: nil
        }
    }

    subscript(parameter: EmitterParameter) -> AnimatableValue? {
        get {
            if let path = Self.floatPath(parameter) { return .scalar(CGFloat(self[keyPath: path])) }
            if let path = Self.cgFloatPath(parameter) { return .scalar(self[keyPath: path]) }
            switch parameter {
            case .color: return .color(color ?? .white)
            case .contents: return .image(contents)
            default: return nil
            }
        }
        set {
            if case .scalar(let x)? = newValue, let path = Self.floatPath(parameter) { self[keyPath: path] = Float(x); return }
            if case .scalar(let x)? = newValue, let path = Self.cgFloatPath(parameter) { self[keyPath: path] = x; return }
            switch (parameter, newValue) {
            case (.color, .color(let c)?): color = c
            case (.contents, .image(let i)?): contents = i
            default: break
            }
        }
    }
}

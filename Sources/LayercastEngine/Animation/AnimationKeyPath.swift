import Foundation

/// An animatable layer property, named by its Core Animation key.
public enum LayerProperty: String, CaseIterable, Sendable {
    /// Keys every layer has for its geometry, opacity, corner radius and border width.
    case position, bounds, anchorPoint, zPosition, opacity, cornerRadius, borderWidth
    /// Colours, visibility, contents and transforms every layer has (`transform` applies about the anchor point).
    case backgroundColor, borderColor, hidden, contents, transform, sublayerTransform
    /// The drop shadow's opacity, blur radius, offset and colour, on every layer.
    case shadowOpacity, shadowRadius, shadowOffset, shadowColor
    // CAShapeLayer
    /// A shape layer's path, paint, line metrics and stroked fraction (docs/engine-model.md §10.1).
    case path, fillColor, strokeColor, lineWidth, miterLimit, lineDashPhase, strokeStart, strokeEnd
    // CAGradientLayer
    /// A gradient layer's colours, stop locations and unit-space end points (docs/engine-model.md §10.2).
    case colors, locations, startPoint, endPoint
    // CAReplicatorLayer
    /// A replicator layer's copy count, per-copy delay, per-copy transform and colour multiplier (§10.3).
    case instanceCount, instanceDelay, instanceTransform, instanceColor
    /// The amounts each further copy of a replicator adds to the colour multiplier's components.
    case instanceRedOffset, instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset

    /// The kind of value the whole property holds.
    public var kind: AnimatableValueKind {
        switch self {
        case .position, .anchorPoint, .startPoint, .endPoint: .point
        case .bounds: .rect
        case .zPosition, .opacity, .cornerRadius, .borderWidth, .shadowOpacity, .shadowRadius: .scalar
        case .lineWidth, .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd: .scalar
        case .instanceCount, .instanceDelay: .scalar
        case .instanceRedOffset, .instanceGreenOffset, .instanceBlueOffset, .instanceAlphaOffset: .scalar
        case .backgroundColor, .borderColor, .shadowColor, .fillColor, .strokeColor, .instanceColor: .color
        case .hidden: .bool
        case .contents: .image
        case .transform, .sublayerTransform, .instanceTransform: .transform
        case .shadowOffset: .size
        case .path: .path
        case .colors: .colors
        case .locations: .numbers
        }
    }

    /// The layer class that has the property: every layer, or only shape, gradient or replicator layers.
    public var layerClass: CALayer.Type {
        switch self {
        case .path, .fillColor, .strokeColor, .lineWidth, .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd:
            CAShapeLayer.self
        case .colors, .locations, .startPoint, .endPoint: CAGradientLayer.self
        case .instanceCount, .instanceDelay, .instanceTransform, .instanceColor,
             .instanceRedOffset, .instanceGreenOffset, .instanceBlueOffset, .instanceAlphaOffset:
            CAReplicatorLayer.self
        default: CALayer.self
        }
    }
}

/// A parsed animation key path: a layer property and, for sub-paths such as `position.x` or
/// `transform.rotation.y`, the part of it the animation drives.
public struct AnimationKeyPath: Hashable, Sendable {
    /// The part of a property a key path addresses.
    public enum Component: Hashable, Sendable {
        /// The whole property value.
        case whole
        /// One coordinate of a point property (`position.x`, `anchorPoint.y`).
        case x, y
        /// The origin or the size of `bounds` (`bounds.origin`, `bounds.size`).
        case origin, size
        /// A rotation in radians about one axis (`transform.rotation` is about z).
        case rotation(Axis)
        /// A scale factor on one axis, or on all three when the axis is nil (`transform.scale`).
        case scale(Axis?)
        /// A translation along one axis, or a size moving x and y when the axis is nil (`transform.translation`).
        case translation(Axis?)
    }

    /// An axis of a transform sub-path (`transform.rotation.x`).
    public enum Axis: Hashable, Sendable {
        /// Across the screen, to the right (`….x`).
        case x
        /// Down the screen (`….y`).
        case y
        /// Out of the screen, towards the viewer (`….z`).
        case z
    }

    /// The layer property the key path starts with.
    public let property: LayerProperty
    /// The part of the property the animation drives; `.whole` for a plain property key.
    public let component: Component

    /// Parses a Core Animation key path; nil for a key path the engine cannot animate.
    public init?(_ string: String) {
        let parts = string.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, let property = LayerProperty(rawValue: first) else { return nil }
        let rest = Array(parts.dropFirst())
        let component: Component
        let isTransform = property.kind == .transform
        let isPoint = property.kind == .point
        switch (property, rest.first, rest.count) {
        case (_, nil, _): component = .whole
        case (_, "x", 1) where isPoint: component = .x
        case (_, "y", 1) where isPoint: component = .y
        case (.bounds, "origin", 1): component = .origin
        case (.bounds, "size", 1): component = .size
        case (_, "rotation", 1) where isTransform: component = .rotation(.z)
        case (_, "scale", 1) where isTransform: component = .scale(nil)
        case (_, "translation", 1) where isTransform: component = .translation(nil)
        case (_, "rotation", 2) where isTransform:
            guard let axis = Self.axis(rest[1]) else { return nil }
            component = .rotation(axis)
        case (_, "scale", 2) where isTransform:
            guard let axis = Self.axis(rest[1]) else { return nil }
            component = .scale(axis)
        case (_, "translation", 2) where isTransform:
            guard let axis = Self.axis(rest[1]) else { return nil }
            component = .translation(axis)
        default: return nil
        }
        self.property = property
        self.component = component
    }

    private static func axis(_ s: String) -> Axis? {
        switch s {
        case "x": .x
        case "y": .y
        case "z": .z
        default: nil
        }
    }

    /// The kind of value an animation on this key path takes.
    public var valueKind: AnimatableValueKind {
        switch component {
        case .whole: property.kind
        case .x, .y, .rotation, .scale, .translation(.some): .scalar
        case .origin: .point
        case .size, .translation(nil): .size
        }
    }

    /// Reads the addressed part of a whole-property value. Transform sub-paths read the
    /// identity's component (they compose into the transform rather than replace a part of it).
    func extract(from whole: AnimatableValue) -> AnimatableValue {
        switch (component, whole) {
        case (.whole, _): return whole
        case (.x, .point(let p)): return .scalar(p.x)
        case (.y, .point(let p)): return .scalar(p.y)
        case (.origin, .rect(let r)): return .point(r.origin)
        case (.size, .rect(let r)): return .size(r.size)
        case (.scale, _): return .scalar(1)
        case (.translation(nil), _): return .size(.zero)
        default: return .scalar(0)
        }
    }

    /// Folds a value of `valueKind` into the running whole-property value.
    func compose(_ part: AnimatableValue, into whole: AnimatableValue) -> AnimatableValue {
        switch (component, whole, part) {
        case (.whole, _, _): return part
        case (.x, .point(var p), .scalar(let v)): p.x = v; return .point(p)
        case (.y, .point(var p), .scalar(let v)): p.y = v; return .point(p)
        case (.origin, .rect(var r), .point(let o)): r.origin = o; return .rect(r)
        case (.size, .rect(var r), .size(let s)): r.size = s; return .rect(r)
        case (_, .transform(let t), _): return .transform(CATransform3DConcat(subTransform(part), t))
        default: return whole
        }
    }

    /// The transform a `transform.*` sub-path value stands for.
    private func subTransform(_ part: AnimatableValue) -> CATransform3D {
        let v: CGFloat
        switch part {
        case .scalar(let x): v = x
        case .size(let s): return CATransform3DMakeTranslation(s.width, s.height, 0)
        default: return CATransform3DIdentity
        }
        switch component {
        case .rotation(.x): return CATransform3DMakeRotation(v, 1, 0, 0)
        case .rotation(.y): return CATransform3DMakeRotation(v, 0, 1, 0)
        case .rotation(.z): return CATransform3DMakeRotation(v, 0, 0, 1)
        case .scale(nil): return CATransform3DMakeScale(v, v, v)
        case .scale(.x): return CATransform3DMakeScale(v, 1, 1)
        case .scale(.y): return CATransform3DMakeScale(1, v, 1)
        case .scale(.z): return CATransform3DMakeScale(1, 1, v)
        case .translation(.x): return CATransform3DMakeTranslation(v, 0, 0)
        case .translation(.y): return CATransform3DMakeTranslation(0, v, 0)
        case .translation(.z): return CATransform3DMakeTranslation(0, 0, v)
        default: return CATransform3DIdentity
        }
    }

    /// Whether the sub-path composes into a transform (and so never replaces it).
    var composesIntoTransform: Bool {
        switch component {
        case .rotation, .scale, .translation: true
        default: false
        }
    }
}

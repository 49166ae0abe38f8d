import Foundation

/// The shape of an animatable value; every key path has exactly one.
public enum AnimatableValueKind: String, Sendable {
    /// Single values: a number, a `CGPoint`, a `CGSize`, a `CGRect`, a colour, a `CATransform3D`,
    /// a flag (switches, never interpolates) or an optional `CGImage` (switches too).
    case scalar, point, size, rect, color, transform, bool, image
    /// A `CGPath`; interpolates point by point between paths of the same element structure.
    case path
    /// A list of colours (a gradient's `colors`); interpolates element-wise at equal counts.
    case colors
    /// A list of numbers (a gradient's `locations`); interpolates element-wise at equal counts.
    case numbers
}

/// A property value an animation can produce: the typed form of the `Any` values
/// (`fromValue`, `values`, …) that Core Animation's API accepts.
public enum AnimatableValue: Hashable, Sendable {
    /// A number (`CGFloat`), also for `Double`, `Float`, `Int` and `NSNumber` inputs.
    case scalar(CGFloat)
    /// A point, interpolated per coordinate.
    case point(CGPoint)
    /// A size, interpolated per dimension.
    case size(CGSize)
    /// A rectangle, interpolated per origin and size component.
    case rect(CGRect)
    /// A colour, interpolated per unpremultiplied r, g, b, a component.
    case color(CGColor)
    /// A transform, interpolated by decomposition (docs/engine-model.md §3).
    case transform(CATransform3D)
    /// A flag; switches halfway instead of interpolating.
    case bool(Bool)
    /// Layer contents, or nil for none; switches halfway instead of interpolating.
    case image(CGImage?)
    /// A path, interpolated point by point when both paths have the same elements.
    case path(CGPath)
    /// A gradient's colour list, interpolated element-wise at equal counts.
    case colors([CGColor])
    /// A gradient's location list, interpolated element-wise at equal counts.
    case numbers([CGFloat])

    /// Which of the kinds this value is.
    public var kind: AnimatableValueKind {
        switch self {
        case .scalar: .scalar
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .bool: .bool
        case .image: .image
        case .path: .path
        case .colors: .colors
        case .numbers: .numbers
        }
    }

    /// Converts a value as an iOS developer would pass it (`CGFloat`, `Double`, `Int`, `CGPoint`,
    /// `CATransform3D`, …) to the given kind; nil when the shape does not fit.
    public init?(_ any: Any?, as kind: AnimatableValueKind) {
        switch kind {
        case .scalar:
            guard let x = Self.number(any) else { return nil }
            self = .scalar(x)
        case .point:
            guard let p = any as? CGPoint else { return nil }
            self = .point(p)
        case .size:
            guard let s = any as? CGSize else { return nil }
            self = .size(s)
        case .rect:
            guard let r = any as? CGRect else { return nil }
            self = .rect(r)
        case .color:
            guard let c = any as? CGColor else { return nil }
            self = .color(c)
        case .transform:
            guard let t = any as? CATransform3D else { return nil }
            self = .transform(t)
        case .bool:
            if let b = any as? Bool { self = .bool(b) } else if let x = Self.number(any) { self = .bool(x != 0) } else { return nil }
        case .image:
            if any == nil { self = .image(nil) } else if let i = any as? CGImage { self = .image(i) } else { return nil }
        case .path:
            if let p = any as? CGPath { self = .path(p.frozen) } else { return nil }  // a CGMutablePath: its snapshot
        case .colors:
            guard let list = any as? [Any] else { return nil }
            let colors = list.compactMap { $0 as? CGColor }
            guard colors.count == list.count else { return nil }
            self = .colors(colors)
        case .numbers:
            guard let list = any as? [Any] else { return nil }
            let numbers = list.compactMap(Self.number)
            guard numbers.count == list.count else { return nil }
            self = .numbers(numbers)
        }
    }

    private static func number(_ any: Any?) -> CGFloat? {
        switch any {
        case let x as CGFloat: x
        case let x as Double: CGFloat(x)
        case let x as Float: CGFloat(x)
        case let x as Int: CGFloat(x)
        case let x as NSNumber: CGFloat(x.doubleValue)
        default: nil
        }
    }

    /// Whether every number in the value is finite.
    public var isFinite: Bool {
        switch self {
        case .scalar(let x): x.isFinite
        case .point(let p): p.x.isFinite && p.y.isFinite
        case .size(let s): s.width.isFinite && s.height.isFinite
        case .rect(let r): r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
        case .color(let c): c.red.isFinite && c.green.isFinite && c.blue.isFinite && c.alpha.isFinite
        case .transform(let t): t.components.allSatisfy(\.isFinite)
        case .bool, .image: true
        case .path, .colors, .numbers: components.allSatisfy(\.isFinite)
        }
    }
}

extension AnimatableValue {
    /// The value's numbers in a fixed order (empty for bool and image values).
    var components: [CGFloat] {
        switch self {
        case .scalar(let x): [x]
        case .point(let p): [p.x, p.y]
        case .size(let s): [s.width, s.height]
        case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .color(let c): [c.red, c.green, c.blue, c.alpha]
        case .transform(let t): t.components
        case .bool, .image: []
        case .path(let p): p.elements.flatMap { $0.storedPoints.flatMap { [$0.x, $0.y] } }
        case .colors(let list): list.flatMap(\.components)
        case .numbers(let list): list
        }
    }

    /// Rebuilds a value of this value's kind from `components` (numeric kinds only).
    func with(components c: [CGFloat]) -> AnimatableValue {
        switch self {
        case .scalar: .scalar(c[0])
        case .point: .point(CGPoint(x: c[0], y: c[1]))
        case .size: .size(CGSize(width: c[0], height: c[1]))
        case .rect: .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: .color(CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .transform: .transform(CATransform3D(components: c))
        case .bool, .image: self
        case .path(let p): .path(p.withStoredPoints(c))
        case .colors(let list):
            .colors((0..<list.count).map { CGColor(red: c[4 * $0], green: c[4 * $0 + 1], blue: c[4 * $0 + 2], alpha: c[4 * $0 + 3]) })
        case .numbers: .numbers(c)
        }
    }

    /// Whether two values of one kind have the same shape, so they combine component by component:
    /// paths with the same element structure, lists of the same length.
    func matchesShape(of other: AnimatableValue) -> Bool {
        switch (self, other) {
        case (.path(let a), .path(let b)): a.hasSameStructure(as: b)
        case (.colors(let a), .colors(let b)): a.count == b.count
        case (.numbers(let a), .numbers(let b)): a.count == b.count
        default: kind == other.kind
        }
    }

    /// Whether values of this kind interpolate (bool and image values switch instead).
    var isInterpolable: Bool {
        switch self {
        case .bool, .image: false
        default: true
        }
    }

    /// Interpolates at fraction `u` (extrapolating outside 0…1): componentwise, transforms by
    /// decomposition, bool and image values switch at 0.5.
    func interpolated(to other: AnimatableValue, _ u: CGFloat) -> AnimatableValue {
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)): return .scalar(a + (b - a) * u)
        case (.point(let a), .point(let b)):
            return .point(CGPoint(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u))
        case (.size(let a), .size(let b)):
            return .size(CGSize(width: a.width + (b.width - a.width) * u, height: a.height + (b.height - a.height) * u))
        case (.transform(let a), .transform(let b)):
            return .transform(CATransform3DInterpolate(a, b, u))
        default:
            guard isInterpolable, matchesShape(of: other) else { return u < 0.5 ? self : other }
            let a = components, b = other.components
            return with(components: zip(a, b).map { $0 + ($1 - $0) * u })
        }
    }

    /// `self ⊕ other`: componentwise sums; for transforms `other` is applied first.
    func adding(_ other: AnimatableValue) -> AnimatableValue {
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)): return .scalar(a + b)
        case (.point(let a), .point(let b)): return .point(CGPoint(x: a.x + b.x, y: a.y + b.y))
        case (.transform(let a), .transform(let b)): return .transform(CATransform3DConcat(b, a))
        default:
            guard isInterpolable, matchesShape(of: other) else { return other }
            return with(components: zip(components, other.components).map { $0 + $1 })
        }
    }

    /// `self ⊖ other`, the inverse of `adding`.
    func subtracting(_ other: AnimatableValue) -> AnimatableValue {
        switch (self, other) {
        case (.transform(let a), .transform(let b)): return .transform(CATransform3DConcat(CATransform3DInvert(b), a))
        default:
            guard isInterpolable, matchesShape(of: other) else { return self }
            return with(components: zip(components, other.components).map { $0 - $1 })
        }
    }

    /// `other` added to itself `count` times (SMIL accumulation); zero-count gives the identity.
    func accumulated(_ count: Int) -> AnimatableValue? {
        guard count > 0, isInterpolable else { return nil }
        var total = self
        for _ in 1..<count { total = total.adding(self) }
        return total
    }

    /// Euclidean distance between two values of a numeric kind (used by paced keyframes).
    func distance(to other: AnimatableValue) -> CGFloat {
        var sum: CGFloat = 0
        for (a, b) in zip(components, other.components) { sum += (b - a) * (b - a) }
        return sum.squareRoot()
    }
}

extension AnimatableValue {
    /// The value as the plain Swift type Core Animation's `Any` properties take.
    public var anyValue: Any? {
        switch self {
        case .scalar(let x): x
        case .point(let p): p
        case .size(let s): s
        case .rect(let r): r
        case .color(let c): c
        case .transform(let t): t
        case .bool(let b): b
        case .image(let i): i
        case .path(let p): p
        case .colors(let list): list
        case .numbers(let list): list
        }
    }
}

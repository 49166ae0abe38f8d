import Foundation

/// How a layer's image is placed in its bounds.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The image at its natural size, centred in the bounds.
    public static let center = CALayerContentsGravity(rawValue: "center")
    /// At natural size, centred horizontally at the top edge.
    public static let top = CALayerContentsGravity(rawValue: "top")
    /// At natural size, centred horizontally at the bottom edge.
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    /// At natural size, centred vertically at the left edge.
    public static let left = CALayerContentsGravity(rawValue: "left")
    /// At natural size, centred vertically at the right edge.
    public static let right = CALayerContentsGravity(rawValue: "right")
    /// At natural size, in the top-left corner.
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    /// At natural size, in the top-right corner.
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    /// At natural size, in the bottom-left corner.
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    /// At natural size, in the bottom-right corner.
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    /// Stretched to fill the bounds exactly (the default).
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    /// Scaled to fit inside the bounds, keeping its aspect ratio, centred.
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    /// Scaled to cover the bounds, keeping its aspect ratio, centred.
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
}

/// Every value of a layer that a frame shows: the model values, or with animations applied the
/// presentation values. A plain value so the frame path can evaluate trees without allocating.
public struct LayerProperties: Equatable, Sendable {
    /// `CALayer.bounds`: the rectangle in the layer's own coordinates.
    public var bounds = CGRect.zero
    /// `CALayer.position`: the anchor point's place in the superlayer.
    public var position = CGPoint.zero
    /// `CALayer.zPosition`: the place on the z axis.
    public var zPosition: CGFloat = 0
    /// `CALayer.anchorPoint`: the bounds' unit point placed at `position`.
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// `CALayer.anchorPointZ`: the anchor's z.
    public var anchorPointZ: CGFloat = 0
    /// `CALayer.transform`: applied about the anchor point.
    public var transform = CATransform3DIdentity
    /// `CALayer.sublayerTransform`: applied to the sublayers about the anchor.
    public var sublayerTransform = CATransform3DIdentity
    /// `CALayer.opacity`, in 0…1.
    public var opacity: Float = 1
    /// `CALayer.isHidden`: hides the layer and its subtree.
    public var isHidden = false
    /// `CALayer.masksToBounds`: clips the sublayers (`sublayerClip`).
    public var masksToBounds = false
    /// `CALayer.isDoubleSided`: whether the back face is drawn and hit.
    public var isDoubleSided = true
    /// `CALayer.backgroundColor`; nil draws none.
    public var backgroundColor: CGColor?
    /// `CALayer.borderColor`; opaque black by default.
    public var borderColor: CGColor? = .black
    /// `CALayer.borderWidth` in points; 0 draws no border.
    public var borderWidth: CGFloat = 0
    /// `CALayer.cornerRadius` in points.
    public var cornerRadius: CGFloat = 0
    /// `CALayer.contents`: the asset image drawn in the bounds.
    public var contents: CGImage?
    /// `CALayer.contentsGravity`: how `contents` is placed.
    public var contentsGravity: CALayerContentsGravity = .resize
    /// `CALayer.shadowColor`; opaque black by default.
    public var shadowColor: CGColor? = .black
    /// `CALayer.shadowOpacity`; 0 draws no shadow.
    public var shadowOpacity: Float = 0
    /// `CALayer.shadowOffset` in points; (0, −3) by default.
    public var shadowOffset = CGSize(width: 0, height: -3)
    /// `CALayer.shadowRadius`: the blur radius in points.
    public var shadowRadius: CGFloat = 3
    /// Stored as a snapshot: a `CGMutablePath` assigned here is copied (`CGPath.copy()`).
    public var shadowPath: CGPath? {
        didSet { if let path = shadowPath, path is CGMutablePath { shadowPath = path.frozen } }
    }
    /// A shape layer's values; nil for every other layer.
    public var shape: ShapeLayerProperties? {
        get { shapeBox.unboxed() }
        set { shapeBox.rebox(newValue) }
    }
    /// A gradient layer's values; nil for every other layer.
    public var gradient: GradientLayerProperties? {
        get { gradientBox.unboxed() }
        set { gradientBox.rebox(newValue) }
    }
    /// A replicator layer's values; nil for every other layer.
    public var replicator: ReplicatorLayerProperties? {
        get { replicatorBox.unboxed() }
        set { replicatorBox.rebox(newValue) }
    }
    // Boxed, so that every other layer's values stay as small as before (one pointer each).
    private var shapeBox: CopyOnWriteBox<ShapeLayerProperties>?
    private var gradientBox: CopyOnWriteBox<GradientLayerProperties>?
    private var replicatorBox: CopyOnWriteBox<ReplicatorLayerProperties>?

    /// A plain layer's defaults, as `CALayer()` has them (no subclass values).
    public init() {}

    /// Whether the layer these values belong to has `property` (a shape property only on a shape layer, …).
    public func has(_ property: LayerProperty) -> Bool {
        switch property.layerClass {
        case is CAShapeLayer.Type: shape != nil
        case is CAGradientLayer.Type: gradient != nil
        case is CAReplicatorLayer.Type: replicator != nil
        default: true
        }
    }

    private static let defaultShape = ShapeLayerProperties()
    private static let defaultGradient = GradientLayerProperties()
    private static let defaultReplicator = ReplicatorLayerProperties()

    /// A property as an animatable value; absent colours read as transparent black, absent lists as
    /// empty, and a property the layer does not have as its default. Setting one it does not have
    /// does nothing.
    public subscript(property: LayerProperty) -> AnimatableValue {
        get {
            // A class's values are read only for that class's properties: a plain layer's reads copy nothing more.
            switch property {
            case .position: .point(position)
            case .bounds: .rect(bounds)
            case .anchorPoint: .point(anchorPoint)
            case .zPosition: .scalar(zPosition)
            case .opacity: .scalar(CGFloat(opacity))
            case .cornerRadius: .scalar(cornerRadius)
            case .borderWidth: .scalar(borderWidth)
            case .backgroundColor: .color(backgroundColor ?? .clear)
            case .borderColor: .color(borderColor ?? .clear)
            case .hidden: .bool(isHidden)
            case .contents: .image(contents)
            case .transform: .transform(transform)
            case .sublayerTransform: .transform(sublayerTransform)
            case .shadowOpacity: .scalar(CGFloat(shadowOpacity))
            case .shadowRadius: .scalar(shadowRadius)
            case .shadowOffset: .size(shadowOffset)
            case .shadowColor: .color(shadowColor ?? .clear)
            case .path: .path((shape ?? Self.defaultShape).path ?? CGPath(elements: []))
            case .fillColor: .color((shape ?? Self.defaultShape).fillColor ?? .clear)
            case .strokeColor: .color((shape ?? Self.defaultShape).strokeColor ?? .clear)
            case .lineWidth: .scalar((shape ?? Self.defaultShape).lineWidth)
            case .miterLimit: .scalar((shape ?? Self.defaultShape).miterLimit)
            case .lineDashPhase: .scalar((shape ?? Self.defaultShape).lineDashPhase)
            case .strokeStart: .scalar((shape ?? Self.defaultShape).strokeStart)
            case .strokeEnd: .scalar((shape ?? Self.defaultShape).strokeEnd)
            case .colors: .colors((gradient ?? Self.defaultGradient).colors ?? [])
            case .locations: .numbers((gradient ?? Self.defaultGradient).locations ?? [])
            case .startPoint: .point((gradient ?? Self.defaultGradient).startPoint)
            case .endPoint: .point((gradient ?? Self.defaultGradient).endPoint)
            case .instanceCount: .scalar(CGFloat((replicator ?? Self.defaultReplicator).instanceCount))
            case .instanceDelay: .scalar((replicator ?? Self.defaultReplicator).instanceDelay)
            case .instanceTransform: .transform((replicator ?? Self.defaultReplicator).instanceTransform)
            case .instanceColor: .color((replicator ?? Self.defaultReplicator).instanceColor ?? .white)
            case .instanceRedOffset: .scalar(CGFloat((replicator ?? Self.defaultReplicator).instanceRedOffset))
            case .instanceGreenOffset: .scalar(CGFloat((replicator ?? Self.defaultReplicator).instanceGreenOffset))
            case .instanceBlueOffset: .scalar(CGFloat((replicator ?? Self.defaultReplicator).instanceBlueOffset))
            case .instanceAlphaOffset: .scalar(CGFloat((replicator ?? Self.defaultReplicator).instanceAlphaOffset))
            }
        }
        set {
            switch (property, newValue) {
            case (.position, .point(let p)): position = p
            case (.bounds, .rect(let r)): bounds = r
            case (.anchorPoint, .point(let p)): anchorPoint = p
            case (.zPosition, .scalar(let x)): zPosition = x
            case (.opacity, .scalar(let x)): opacity = Float(x)
            case (.cornerRadius, .scalar(let x)): cornerRadius = x
            case (.borderWidth, .scalar(let x)): borderWidth = x
            case (.backgroundColor, .color(let c)): backgroundColor = c
            case (.borderColor, .color(let c)): borderColor = c
            case (.hidden, .bool(let b)): isHidden = b
            case (.contents, .image(let i)): contents = i
            case (.transform, .transform(let t)): transform = t
            case (.sublayerTransform, .transform(let t)): sublayerTransform = t
            case (.shadowOpacity, .scalar(let x)): shadowOpacity = Float(x)
            case (.shadowRadius, .scalar(let x)): shadowRadius = x
            case (.shadowOffset, .size(let s)): shadowOffset = s
            case (.shadowColor, .color(let c)): shadowColor = c
            case (.path, .path(let p)): shape?.path = p
            case (.fillColor, .color(let c)): shape?.fillColor = c
            case (.strokeColor, .color(let c)): shape?.strokeColor = c
            case (.lineWidth, .scalar(let x)): shape?.lineWidth = x
            case (.miterLimit, .scalar(let x)): shape?.miterLimit = x
            case (.lineDashPhase, .scalar(let x)): shape?.lineDashPhase = x
            case (.strokeStart, .scalar(let x)): shape?.strokeStart = x
            case (.strokeEnd, .scalar(let x)): shape?.strokeEnd = x
            case (.colors, .colors(let c)): gradient?.colors = c
            case (.locations, .numbers(let n)): gradient?.locations = n
            case (.startPoint, .point(let p)): gradient?.startPoint = p
            case (.endPoint, .point(let p)): gradient?.endPoint = p
            case (.instanceCount, .scalar(let x)): replicator?.instanceCount = x.isFinite ? Int(max(-1e9, min(1e9, x))) : 0
            case (.instanceDelay, .scalar(let x)): replicator?.instanceDelay = x
            case (.instanceTransform, .transform(let t)): replicator?.instanceTransform = t
            case (.instanceColor, .color(let c)): replicator?.instanceColor = c
            case (.instanceRedOffset, .scalar(let x)): replicator?.instanceRedOffset = Float(x)
            case (.instanceGreenOffset, .scalar(let x)): replicator?.instanceGreenOffset = Float(x)
            case (.instanceBlueOffset, .scalar(let x)): replicator?.instanceBlueOffset = Float(x)
            case (.instanceAlphaOffset, .scalar(let x)): replicator?.instanceAlphaOffset = Float(x)
            default: break
            }
        }
    }
}

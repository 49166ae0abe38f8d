import Foundation

/// How a layer's image is placed in its bounds.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let center = CALayerContentsGravity(rawValue: "center")
    public static let top = CALayerContentsGravity(rawValue: "top")
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    public static let left = CALayerContentsGravity(rawValue: "left")
    public static let right = CALayerContentsGravity(rawValue: "right")
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
}

/// Every value of a layer that a frame shows: the model values, or with animations applied the
/// presentation values. A plain value so the frame path can evaluate trees without allocating.
public struct LayerProperties: Equatable, Sendable {
    public var bounds = CGRect.zero
    public var position = CGPoint.zero
    public var zPosition: CGFloat = 0
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    public var anchorPointZ: CGFloat = 0
    public var transform = CATransform3DIdentity
    public var sublayerTransform = CATransform3DIdentity
    public var opacity: Float = 1
    public var isHidden = false
    public var masksToBounds = false
    public var isDoubleSided = true
    public var backgroundColor: CGColor?
    public var borderColor: CGColor? = .black
    public var borderWidth: CGFloat = 0
    public var cornerRadius: CGFloat = 0
    public var contents: CGImage?
    public var contentsGravity: CALayerContentsGravity = .resize
    public var shadowColor: CGColor? = .black
    public var shadowOpacity: Float = 0
    public var shadowOffset = CGSize(width: 0, height: -3)
    public var shadowRadius: CGFloat = 3
    public var shadowPath: CGPath?

    public init() {}

    /// A property as an animatable value; absent colours read as transparent black.
    public subscript(property: LayerProperty) -> AnimatableValue {
        get {
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
            default: break
            }
        }
    }
}

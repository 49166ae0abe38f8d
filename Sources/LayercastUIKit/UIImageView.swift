import Foundation
import LayercastEngine

extension UIView {
    /// How a view's image fills its bounds, with UIKit's names.
    public enum ContentMode: Int, Sendable {
        /// Stretched to the bounds.
        case scaleToFill
        /// Scaled to fit, aspect kept.
        case scaleAspectFit
        /// Scaled to fill, aspect kept.
        case scaleAspectFill
        /// As `scaleToFill` (nothing is redrawn here).
        case redraw
        /// Natural size, centred.
        case center
        /// Natural size, at the top.
        case top
        /// Natural size, at the bottom.
        case bottom
        /// Natural size, at the left.
        case left
        /// Natural size, at the right.
        case right
        /// Natural size, top left.
        case topLeft
        /// Natural size, top right.
        case topRight
        /// Natural size, bottom left.
        case bottomLeft
        /// Natural size, bottom right.
        case bottomRight

        /// The layer gravity that draws the same.
        var gravity: CALayerContentsGravity {
            switch self {
            case .scaleToFill, .redraw: .resize
            case .scaleAspectFit: .resizeAspect
            case .scaleAspectFill: .resizeAspectFill
            case .center: .center
            case .top: .top
            case .bottom: .bottom
            case .left: .left
            case .right: .right
            case .topLeft: .topLeft
            case .topRight: .topRight
            case .bottomLeft: .bottomLeft
            case .bottomRight: .bottomRight
            }
        }
    }
}

/// A view that shows an image of the scene's assets as its layer's `contents`.
open class UIImageView: UIView {
    /// An empty image view with `frame`; it takes no input unless enabled, as in UIKit.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    public required init?(coder: NSCoder) { return nil }

    /// A view the size of `image` (zero without one) showing it.
    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
    }

    /// The image shown (`layer.contents`); a change inside a transition switches or fades with it.
    open var image: UIImage? {
        get { layer.contents.map(UIImage.init(cgImage:)) }
        set {
            let old = layer.contents
            layer.contents = newValue?.cgImage
            UIViewAnimationBlock.record(.contents, of: self, from: old, to: newValue?.cgImage)
        }
    }

    /// How the image fills the bounds (`layer.contentsGravity`); scale-to-fill by default.
    open var contentMode: UIView.ContentMode = .scaleToFill {
        didSet { layer.contentsGravity = contentMode.gravity }
    }
}

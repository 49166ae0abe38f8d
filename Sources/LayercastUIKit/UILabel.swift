import Foundation
import LayercastEngine

/// A label over a `CATextLayer`: `text`, `textColor`, `font` and `textAlignment` are the layer's
/// string, foreground colour, font size and weight, and alignment mode.
open class UILabel: UIView {
    /// `CATextLayer`.
    open override class var layerClass: AnyClass { CATextLayer.self }

    /// The backing text layer.
    public var textLayer: CATextLayer { layer as! CATextLayer }

    /// A label with `frame`: black 17-point system text, as UIKit's default.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false  // UIKit's default for labels
        textLayer.foregroundColor = .black
        textLayer.fontSize = 17
    }

    public required init?(coder: NSCoder) { return nil }

    /// The text shown.
    open var text: String? {
        get { textLayer.string }
        set { textLayer.string = newValue }
    }

    /// The text colour (black by default).
    open var textColor: UIColor! {
        get { textLayer.foregroundColor.map(UIColor.init(cgColor:)) }
        set { textLayer.foregroundColor = newValue?.cgColor ?? .black }
    }

    /// The font: its size and weight.
    open var font: UIFont! {
        get { UIFont(pointSize: textLayer.fontSize, weight: UIFont.Weight(rawValue: textLayer.fontWeight)) }
        set {
            let font = newValue ?? .systemFont(ofSize: 17)
            textLayer.fontSize = font.pointSize
            textLayer.fontWeight = font.weight.rawValue
        }
    }

    /// The alignment of the text in the label's width.
    open var textAlignment: NSTextAlignment {
        get {
            switch textLayer.alignmentMode {
            case .left: .left
            case .center: .center
            case .right: .right
            case .justified: .justified
            default: .natural
            }
        }
        set {
            textLayer.alignmentMode = switch newValue {
            case .left: .left
            case .center: .center
            case .right: .right
            case .justified: .justified
            case .natural: .natural
            }
        }
    }

    /// Accepted and stored; the browser wraps text to the layer's width either way.
    open var numberOfLines = 1
}

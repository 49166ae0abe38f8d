import Foundation
import LayercastEngine

/// A tappable control with a title (a `UILabel` filling it) and an image per state.
open class UIButton: UIControl {
    /// Button types, with UIKit's names; every type draws the same here.
    public enum ButtonType: Int, Sendable {
        /// No style of its own.
        case custom
        /// The system style.
        case system
        /// A disclosure button.
        case detailDisclosure
        /// A light info button.
        case infoLight
        /// A dark info button.
        case infoDark
        /// An add button.
        case contactAdd
        /// A close button.
        case close
    }

    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private var images: [UInt: UIImage] = [:]
    /// The label that shows the title, centred in the button.
    public let titleLabel: UILabel?
    /// The view that shows the image, filling the button with its aspect kept.
    public let imageView: UIImageView?

    /// A button with `frame`.
    public override init(frame: CGRect) {
        let label = UILabel(frame: CGRect(origin: .zero, size: frame.size))
        label.textAlignment = .center
        let image = UIImageView(frame: CGRect(origin: .zero, size: frame.size))
        image.contentMode = .scaleAspectFit
        titleLabel = label
        imageView = image
        super.init(frame: frame)
        addSubview(image)
        addSubview(label)
        titleColors[UIControl.State.normal.rawValue] = .systemBlue
        stateChanged()
    }

    /// A button of `buttonType` with a zero frame.
    public convenience init(type buttonType: ButtonType) { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { return nil }

    /// The bounds; the title and image follow them.
    open override var bounds: CGRect {
        didSet { layoutContent() }
    }

    /// Sets the title shown in `state` (the normal title stands in for states without one).
    open func setTitle(_ title: String?, for state: UIControl.State) {
        titles[state.rawValue] = title
        stateChanged()
    }

    /// The title for `state`.
    open func title(for state: UIControl.State) -> String? { titles[state.rawValue] ?? titles[0] }

    /// Sets the title colour in `state`.
    open func setTitleColor(_ color: UIColor?, for state: UIControl.State) {
        titleColors[state.rawValue] = color
        stateChanged()
    }

    /// Sets the image shown in `state`.
    open func setImage(_ image: UIImage?, for state: UIControl.State) {
        images[state.rawValue] = image
        stateChanged()
    }

    /// The image for `state`.
    open func image(for state: UIControl.State) -> UIImage? { images[state.rawValue] ?? images[0] }

    /// The title shown now.
    public var currentTitle: String? { title(for: state) }

    /// Shows the title, colour and image of the current state.
    open override func stateChanged() {
        titleLabel?.text = value(in: titles)
        titleLabel?.textColor = value(in: titleColors) ?? .systemBlue
        imageView?.image = value(in: images)
    }

    /// The value for the current state: the exact state's, else selected, highlighted or disabled alone, else normal.
    private func value<V>(in table: [UInt: V]) -> V? {
        let state = self.state
        if let v = table[state.rawValue] { return v }
        for single in [UIControl.State.selected, .highlighted, .disabled] where state.contains(single) {
            if let v = table[single.rawValue] { return v }
        }
        return table[0]
    }

    private func layoutContent() {
        let inside = CGRect(origin: .zero, size: bounds.size)
        UIView.performWithoutAnimation {
            imageView?.frame = inside
            titleLabel?.frame = inside
        }
    }
}

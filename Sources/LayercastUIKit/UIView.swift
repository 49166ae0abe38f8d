import Foundation
import LayercastEngine

/// A view over an ordinary engine layer, with UIKit's names and semantics: geometry, appearance
/// and the view tree write through to `layer` (and its sublayers), and inside an animation block
/// the changes add Core Animation animations as UIKit does (docs/engine-model.md §12).
open class UIView {
    /// The backing layer: an engine layer like any other, drawn and hit-tested as today.
    public let layer: CALayer
    /// The view this one is a subview of.
    public private(set) weak var superview: UIView?
    /// The subviews, back to front.
    public private(set) var subviews: [UIView] = []
    /// A number to find the view by (`viewWithTag(_:)`).
    open var tag = 0
    /// Whether taps and drags reach this view and its subviews (gesture recognizers, controls).
    open var isUserInteractionEnabled = true
    /// The recognizers attached with `addGestureRecognizer(_:)`, nil when there are none.
    public private(set) var gestureRecognizers: [UIGestureRecognizer]?

    /// The class of the backing layer: override it to return `CAShapeLayer.self`,
    /// `CAGradientLayer.self`, `CATextLayer.self`… as on iOS.
    open class var layerClass: AnyClass { CALayer.self }

    /// A view with `frame`; a frame that is not finite leaves it at `.zero` (`UIKitErrors`).
    public init(frame: CGRect) {
        layer = UIView.makeLayer(of: Self.layerClass)
        layer.actions = UIView.noImplicitAnimations
        UIView.performWithoutAnimation { self.frame = frame }
    }

    /// A view with a zero frame.
    public convenience init() { self.init(frame: .zero) }

    /// Views are not decoded from archives here: always nil (subclasses keep their iOS signature).
    public required init?(coder: NSCoder) { return nil }

    // MARK: Geometry

    /// The frame in the superview's coordinates; setting it sets `bounds.size` and `center`
    /// (animated in a block). A frame that is not finite is refused and changes nothing.
    open var frame: CGRect {
        get { layer.frame }
        set {
            guard newValue.isFinite else { return refuse("UIView.frame", newValue) }
            let r = newValue.standardized
            bounds = CGRect(origin: bounds.origin, size: r.size)
            center = CGPoint(x: r.minX + layer.anchorPoint.x * r.width, y: r.minY + layer.anchorPoint.y * r.height)
        }
    }

    /// The bounds (`layer.bounds`); animated additively in a block (`bounds.origin`, `bounds.size`).
    open var bounds: CGRect {
        get { layer.bounds }
        set {
            guard newValue.isFinite else { return refuse("UIView.bounds", newValue) }
            let old = layer.bounds
            layer.bounds = newValue
            UIViewAnimationBlock.record(.bounds, of: self, from: old, to: newValue)
        }
    }

    /// The centre in the superview's coordinates: `layer.position`, as in UIKit; animated additively.
    open var center: CGPoint {
        get { layer.position }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return refuse("UIView.center", newValue) }
            let old = layer.position
            layer.position = newValue
            UIViewAnimationBlock.record(.position, of: self, from: old, to: newValue)
        }
    }

    /// The 2D transform about the centre (`layer.transform`'s affine part); animated additively.
    open var transform: CGAffineTransform {
        get { CATransform3DGetAffineTransform(layer.transform) }
        set { transform3D = CATransform3DMakeAffineTransform(newValue) }
    }

    /// The layer's 3D transform, as UIKit's `transform3D` (iOS 13); animated additively.
    open var transform3D: CATransform3D {
        get { layer.transform }
        set {
            guard newValue.isFinite else { return refuse("UIView.transform", newValue) }
            let old = layer.transform
            layer.transform = newValue
            UIViewAnimationBlock.record(.transform, of: self, from: old, to: newValue)
        }
    }

    /// The opacity (`layer.opacity`), 0…1; animated in a block, replacing any earlier opacity animation.
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set {
            guard newValue.isFinite else { return refuse("UIView.alpha", newValue) }
            let shown = UIViewAnimationBlock.startsFromShownValues ? layer.presentation()?.opacity : nil
            let old = shown ?? layer.opacity, new = Float(min(max(newValue, 0), 1))
            layer.opacity = new
            UIViewAnimationBlock.record(.opacity, of: self, from: old, to: new)
        }
    }

    /// The background colour (`layer.backgroundColor`); animated in a block, replacing.
    open var backgroundColor: UIColor? {
        get { layer.backgroundColor.map(UIColor.init(cgColor:)) }
        set {
            let old = UIViewAnimationBlock.startsFromShownValues ? layer.presentation()?.backgroundColor : layer.backgroundColor
            layer.backgroundColor = newValue?.cgColor
            UIViewAnimationBlock.record(.backgroundColor, of: self, from: old, to: newValue?.cgColor)
        }
    }

    /// Whether the view is hidden (`layer.isHidden`); not animated, except inside a transition.
    open var isHidden: Bool {
        get { layer.isHidden }
        set {
            let old = layer.isHidden
            layer.isHidden = newValue
            UIViewAnimationBlock.record(.hidden, of: self, from: old, to: newValue)
        }
    }

    /// Whether subviews are clipped to the bounds (`layer.masksToBounds`).
    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    // MARK: The view tree

    /// Adds `view` on top of the subviews, first removing it from its superview. Adding a view to
    /// itself or to one of its own subviews is refused (`UIKitErrors`) and changes nothing.
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` of the subviews (clamped to the end).
    open func insertSubview(_ view: UIView, at index: Int) {
        guard acceptsSubview(view, "UIView.insertSubview(_:at:)") else { return }
        view.detach()
        let index = min(max(index, 0), subviews.count)
        if index < subviews.count {
            layer.insertSublayer(view.layer, below: subviews[index].layer)
        } else if let last = subviews.last {
            layer.insertSublayer(view.layer, above: last.layer)
        } else {
            layer.addSublayer(view.layer)
        }
        subviews.insert(view, at: index)
        view.superview = self
    }

    /// Inserts `view` just above `sibling`, a subview.
    open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
        guard sibling.superview === self, sibling !== view else { return addSubview(view) }
        guard acceptsSubview(view, "UIView.insertSubview(_:aboveSubview:)") else { return }
        view.detach()
        insertSubview(view, at: (subviews.firstIndex { $0 === sibling } ?? subviews.count - 1) + 1)
    }

    /// Inserts `view` just below `sibling`, a subview.
    open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
        guard sibling.superview === self, sibling !== view else { return insertSubview(view, at: 0) }
        guard acceptsSubview(view, "UIView.insertSubview(_:belowSubview:)") else { return }
        view.detach()
        insertSubview(view, at: subviews.firstIndex { $0 === sibling } ?? 0)
    }

    /// Moves a subview to the top.
    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        addSubview(view)
    }

    /// Moves a subview to the bottom.
    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Removes the view (and its layer) from its superview.
    open func removeFromSuperview() { detach() }

    /// Whether `view` is this view or one of its ancestors.
    public func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }

    /// This view or the first descendant (depth first, back to front) whose `tag` is `tag`.
    public func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for view in subviews {
            if let found = view.viewWithTag(tag) { return found }
        }
        return nil
    }

    // MARK: Hit testing (the model tree, as UIKit's)

    /// Whether `point`, in this view's coordinates, lies in its bounds (half-open).
    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool { layer.properties.boundsContain(point) }

    /// The farthest descendant containing `point` (in this view's coordinates), UIKit's way: a
    /// hidden view, one with `isUserInteractionEnabled` false or alpha below 0.01 is skipped with
    /// its subviews; subviews are tried front to back. Taps in scenes use `UIViewInput`, which
    /// judges the presentation tree.
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard isUserInteractionEnabled, !isHidden, alpha >= 0.01, self.point(inside: point, with: event) else { return nil }
        for view in subviews.reversed() {
            if let hit = view.hitTest(view.layer.convert(point, from: layer), with: event) { return hit }
        }
        return self
    }

    /// `point` in this view's coordinates mapped into `view`'s (the scene's when nil).
    public func convert(_ point: CGPoint, to view: UIView?) -> CGPoint { layer.convert(point, to: view?.layer) }

    /// `point` in `view`'s coordinates (the scene's when nil) mapped into this view's.
    public func convert(_ point: CGPoint, from view: UIView?) -> CGPoint { layer.convert(point, from: view?.layer) }

    // MARK: Gesture recognizers

    /// Attaches a recognizer: taps and drags on this view or its subviews reach it (`UIGestureInput`).
    open func addGestureRecognizer(_ recognizer: UIGestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        gestureRecognizers = (gestureRecognizers ?? []) + [recognizer]
        recognizer.view = self
    }

    /// Detaches a recognizer.
    open func removeGestureRecognizer(_ recognizer: UIGestureRecognizer) {
        gestureRecognizers?.removeAll { $0 === recognizer }
        if gestureRecognizers?.isEmpty == true { gestureRecognizers = nil }
        if recognizer.view === self { recognizer.view = nil }
    }

    // MARK: Private

    private func detach() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        layer.removeFromSuperlayer()
    }

    private func acceptsSubview(_ view: UIView, _ call: String) -> Bool {
        guard !isDescendant(of: view) else {
            UIKitErrors.shared.record(call, view === self ? "a view cannot be its own subview; nothing changed"
                                                          : "the view is an ancestor of the receiver (a cycle); nothing changed")
            return false
        }
        return true
    }

    private func refuse(_ call: String, _ value: Any) {
        UIKitErrors.shared.record(call, "\(value) is not finite; the view is unchanged")
    }

    /// Maps every animatable layer key to no action: a view's layer animates only in animation
    /// blocks, as UIKit's views return no action for their layers outside them.
    static var noImplicitAnimations: [String: CAAction] { Dictionary(
        uniqueKeysWithValues: LayerProperty.allCases.map { ($0.rawValue, NSNull() as CAAction) }) }

    /// A fresh layer of `type`: made from a template of the engine class it derives from, so a
    /// subclass of `CAShapeLayer` starts with a shape layer's defaults.
    static func makeLayer(of type: AnyClass) -> CALayer {
        guard let type = type as? CALayer.Type else { return CALayer() }
        let template: CALayer =
            type is CAShapeLayer.Type ? CAShapeLayer()
            : type is CAGradientLayer.Type ? CAGradientLayer()
            : type is CATextLayer.Type ? CATextLayer()
            : type is CAReplicatorLayer.Type ? CAReplicatorLayer()
            : type is CATransformLayer.Type ? CATransformLayer()
            : CALayer()
        return type.init(layer: template)
    }
}

extension CGRect {
    /// Whether origin and size are finite numbers.
    var isFinite: Bool { origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite }
}

extension CATransform3D {
    /// Whether every entry is finite.
    var isFinite: Bool {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44].allSatisfy(\.isFinite)
    }
}

import Foundation
import LayercastEngine

extension UIView {
    /// A transition of `view`: with a flip option the view turns over (a `transform` keyframe
    /// animation under the key `transition`, in perspective) and the changes `animations` makes
    /// to it and its subviews switch half-way; with `transitionCrossDissolve` views that hide or show
    /// fade and other changes interpolate (docs/engine-model.md §12.4). Curls are reported and run
    /// as cross-dissolves.
    public class func transition(with view: UIView, duration: TimeInterval, options: AnimationOptions = [],
                                 animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        let (duration, _) = checked(duration, 0, "UIView.transition(with:duration:…)")
        let style = options.transitionStyle
        if style == 3 || style == 4 {
            UIKitErrors.shared.record("UIView.transition(with:duration:options:…)", "page curls are not drawn; run as a cross-dissolve")
        }
        let flip = [1, 2, 6, 7].contains(style)
        let block = UIViewAnimationBlock(duration: duration, delay: 0, options: options, timing: .curve(options.timingFunction),
                                         kind: .transition(flip: flip), completion: UIViewAnimationCompletion(completion))
        guard duration > 0 else { return performUnanimated(animations ?? {}, completion: block.completion, delay: 0) }
        if flip { block.add(block.configured(flipAnimation(style: style, of: view)), to: view.layer, key: "transition") }
        UIViewAnimationBlock.run(block, animations ?? {})
        block.completion.seal(delay: 0)
    }

    /// Replaces `fromView` by `toView` in `fromView`'s superview with a transition of that superview:
    /// `toView` is inserted above `fromView` (or shown, with `showHideTransitionViews`) and `fromView`
    /// hidden at the switch, then removed when the transition ends (or left hidden).
    public class func transition(from fromView: UIView, to toView: UIView, duration: TimeInterval,
                                 options: AnimationOptions = [], completion: ((Bool) -> Void)? = nil) {
        guard let container = fromView.superview else {
            UIKitErrors.shared.record("UIView.transition(from:to:…)", "fromView has no superview; nothing changed")
            return
        }
        let showHide = options.contains(.showHideTransitionViews)
        if !showHide {
            performWithoutAnimation {
                toView.isHidden = true
                if toView.superview !== container { container.insertSubview(toView, aboveSubview: fromView) }
            }
        }
        transition(with: container, duration: duration, options: options, animations: {
            fromView.isHidden = true
            toView.isHidden = false
        }, completion: { finished in
            if !showHide {
                fromView.removeFromSuperview()
                performWithoutAnimation { fromView.isHidden = false }
            }
            completion?(finished)
        })
    }

    /// The turn of a flip: the view's transform (additive) rotates to edge-on half-way and back from
    /// the other edge, in perspective with the eye at twice the view's larger side.
    private static func flipAnimation(style: UInt, of view: UIView) -> CAKeyframeAnimation {
        let size = view.bounds.size
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / (2 * max(size.width, size.height, 1))
        // Left and top edges come towards the viewer: the angle's sign follows the axis.
        let (sign, x, y): (CGFloat, CGFloat, CGFloat) = switch style {
        case 1: (-1, 0, 1)
        case 2: (1, 0, 1)
        case 6: (1, 1, 0)
        default: (-1, 1, 0)
        }
        func turned(_ angle: CGFloat) -> CATransform3D {
            CATransform3DConcat(CATransform3DMakeRotation(sign * angle, x, y, 0), perspective)
        }
        let animation = CAKeyframeAnimation(keyPath: "transform")
        animation.values = [turned(0), turned(.pi / 2), turned(-.pi / 2), turned(0)]
        animation.keyTimes = [0, 0.5, 0.5, 1]
        animation.isAdditive = true
        return animation
    }
}

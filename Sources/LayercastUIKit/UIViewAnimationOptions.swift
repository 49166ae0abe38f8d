import Foundation
import LayercastEngine

extension UIView {
    /// Options of `animate(withDuration:delay:options:animations:completion:)` and
    /// `transition(with:duration:options:animations:completion:)`, with UIKit's raw values.
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Accepted and ignored: there is no layout pass.
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        /// Accepted and ignored: views take input while they animate anyway.
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Non-additive properties (alpha, colour) start from what is on screen, not the old model value.
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Repeats forever (`repeatCount = .infinity`).
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Runs forward then backward (`autoreverses`).
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// A nested block uses its own duration, not the enclosing block's.
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// A nested block uses its own curve, not the enclosing block's.
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        /// Accepted and ignored: contents are not redrawn.
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        /// `transition(from:to:…)` hides and shows the views instead of removing and adding.
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        /// A nested block uses its own options.
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

        /// The default curve: `easeInEaseOut`.
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        /// `easeIn`.
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        /// `easeOut`.
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        /// `linear`.
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        /// No transition.
        public static let transitionNone = AnimationOptions(rawValue: 0 << 20)
        /// Turns the view about its vertical axis, left edge towards the viewer.
        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        /// Turns the view about its vertical axis, right edge towards the viewer.
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        /// Not drawn here: reported, and run as a cross-dissolve.
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        /// Not drawn here: reported, and run as a cross-dissolve.
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        /// Fades the changed views.
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        /// Turns the view about its horizontal axis, top edge towards the viewer.
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        /// Turns the view about its horizontal axis, bottom edge towards the viewer.
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

        /// The curve bits as a timing function (`easeInEaseOut` when none is set).
        var timingFunction: CAMediaTimingFunction {
            switch (rawValue >> 16) & 0xF {
            case 1: CAMediaTimingFunction(name: .easeIn)
            case 2: CAMediaTimingFunction(name: .easeOut)
            case 3: CAMediaTimingFunction(name: .linear)
            default: CAMediaTimingFunction(name: .easeInEaseOut)
            }
        }

        /// The transition bits (0 for none, 1…7 as above).
        var transitionStyle: UInt { (rawValue >> 20) & 0xF }
    }

    /// Options of `animateKeyframes(withDuration:delay:options:animations:completion:)`, with
    /// UIKit's raw values: the shared ones of `AnimationOptions` and the calculation mode.
    public struct KeyframeAnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Accepted and ignored: there is no layout pass.
        public static let layoutSubviews = KeyframeAnimationOptions(rawValue: 1 << 0)
        /// Accepted and ignored: views take input while they animate anyway.
        public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
        /// Accepted: keyframe animations replace the earlier ones of their key paths anyway.
        public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
        /// Repeats forever.
        public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
        /// Runs forward then backward.
        public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
        /// A nested block uses its own duration.
        public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
        /// A nested block uses its own options.
        public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: 1 << 9)
        /// Keyframes joined by straight lines (the default).
        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        /// Each keyframe's value held until the next.
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        /// Constant speed; keyframe times ignored.
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        /// A Catmull-Rom spline through the keyframes.
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        /// The spline at constant speed.
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

        /// The calculation mode bits as Core Animation's mode.
        var calculationMode: CAAnimationCalculationMode {
            switch (rawValue >> 10) & 0x7 {
            case 1: .discrete
            case 2: .paced
            case 3: .cubic
            case 4: .cubicPaced
            default: .linear
            }
        }

        /// The options shared with `AnimationOptions` (repeat, autoreverse, inheritance).
        var shared: AnimationOptions { AnimationOptions(rawValue: rawValue & 0x3FF) }
    }
}

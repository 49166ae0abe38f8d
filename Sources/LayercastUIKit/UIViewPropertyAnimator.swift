import Foundation
import LayercastEngine

extension UIView {
    /// The curves of `UIViewPropertyAnimator(duration:curve:animations:)`, with UIKit's raw values.
    public enum AnimationCurve: Int, Sendable {
        /// `easeInEaseOut`.
        case easeInOut
        /// `easeIn`.
        case easeIn
        /// `easeOut`.
        case easeOut
        /// `linear`.
        case linear

        /// The curve as a timing function.
        var timingFunction: CAMediaTimingFunction {
            switch self {
            case .easeInOut: CAMediaTimingFunction(name: .easeInEaseOut)
            case .easeIn: CAMediaTimingFunction(name: .easeIn)
            case .easeOut: CAMediaTimingFunction(name: .easeOut)
            case .linear: CAMediaTimingFunction(name: .linear)
            }
        }
    }
}

/// Where an animator is: not started (or finished), started (running or paused), or stopped.
public enum UIViewAnimatingState: Int, Sendable {
    /// Not started, or finished.
    case inactive
    /// Started: running or paused.
    case active
    /// Stopped, waiting for `finishAnimation(at:)`.
    case stopped
}

/// Where an animator ended: at its end values, its start values, or where it was stopped.
public enum UIViewAnimatingPosition: Int, Sendable {
    /// At the end values.
    case end
    /// Back at the start values.
    case start
    /// Where it was stopped.
    case current
}

/// An interruptible animation with UIKit's API: the changes its blocks make become the same
/// animations `UIView.animate` adds (docs/engine-model.md §12.5), re-added with `speed` 0 and a
/// `timeOffset` while paused, `speed` −1 while reversed, so `fractionComplete` scrubs them;
/// completions run on the scene's clock with the position the animator ended at.
open class UIViewPropertyAnimator {
    /// The duration in seconds.
    public let duration: TimeInterval
    /// Started, stopped or not.
    public private(set) var state: UIViewAnimatingState = .inactive
    /// Whether it is running now (started and not paused).
    public private(set) var isRunning = false
    /// Accepted and ignored: every animator here can be interrupted.
    public var isInterruptible = true
    /// Whether it plays towards its start values; changing it while running turns it round.
    public var isReversed = false {
        didSet { if isRunning, isReversed != oldValue { fraction = currentFraction(reversed: oldValue); apply() } }
    }

    private let timing: UIViewAnimationBlock.Timing
    private var blocks: [(animations: () -> Void, delayFactor: CGFloat)] = []
    private var completions: [(UIViewAnimatingPosition) -> Void] = []
    private var specs: [(spec: UIViewAnimationSpec, offset: CFTimeInterval)] = []
    private var changes: [(view: UIView, property: ViewProperty, old: Any?)] = []
    private var fraction: CGFloat = 0
    private var runStart: CFTimeInterval = 0
    private var timer: SceneTimer?
    private static let keyPrefix = "animator"
    private let serial = UIViewPropertyAnimator.nextSerial()

    /// An animator with one of UIKit's curves.
    public init(duration: TimeInterval, curve: UIView.AnimationCurve, animations: (() -> Void)? = nil) {
        self.duration = UIViewPropertyAnimator.checked(duration)
        timing = .curve(curve.timingFunction)
        if let animations { blocks.append((animations, 0)) }
    }

    /// An animator with a cubic Bézier curve through (0, 0), the two points and (1, 1).
    public init(duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint, animations: (() -> Void)? = nil) {
        self.duration = UIViewPropertyAnimator.checked(duration)
        timing = .curve(CAMediaTimingFunction(controlPoints: (point1.x, point1.y, point2.x, point2.y)))
        if let animations { blocks.append((animations, 0)) }
    }

    /// An animator with a spring of `ratio` that settles in `duration` (`UISpringMapping`).
    public init(duration: TimeInterval, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
        self.duration = UIViewPropertyAnimator.checked(duration)
        let spring = UISpringMapping.spring(duration: self.duration, dampingRatio: ratio > 0 ? ratio : 1, initialVelocity: 0)
        if !(ratio > 0) { UIKitErrors.shared.record("UIViewPropertyAnimator(duration:dampingRatio:)", "damping ratio \(ratio) is not > 0; animated with 1") }
        timing = spring.map { .spring($0) } ?? .curve(CAMediaTimingFunction(name: .easeInEaseOut))
        if let animations { blocks.append((animations, 0)) }
    }

    /// An animator started at once (after `delay`) with the curve of `options`, as UIKit's.
    public class func runningPropertyAnimator(withDuration duration: TimeInterval, delay: TimeInterval,
                                              options: UIView.AnimationOptions = [], animations: @escaping () -> Void,
                                              completion: ((UIViewAnimatingPosition) -> Void)? = nil) -> UIViewPropertyAnimator {
        let curve: UIView.AnimationCurve = UIView.AnimationCurve(rawValue: Int((options.rawValue >> 16) & 0x3)) ?? .easeInOut
        let animator = UIViewPropertyAnimator(duration: duration, curve: curve, animations: animations)
        if let completion { animator.addCompletion(completion) }
        animator.startAnimation(afterDelay: delay)
        return animator
    }

    /// Adds a block; added while the animator is active, its changes animate over the remaining time.
    public func addAnimations(_ animation: @escaping () -> Void) { addAnimations(animation, delayFactor: 0) }

    /// Adds a block whose animations start `delayFactor` (0…1) of the way through.
    public func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
        let factor = min(max(delayFactor.isFinite ? delayFactor : 0, 0), 1)
        if state == .inactive { return blocks.append((animation, factor)) }
        make([(animation, max(factor, fraction))])
        apply()
    }

    /// Adds a block called with the final position when the animator finishes, after earlier ones.
    public func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) { completions.append(completion) }

    /// Runs the animations from where they are (the start, the first time).
    public func startAnimation() {
        guard state != .stopped else {
            return UIKitErrors.shared.record("UIViewPropertyAnimator.startAnimation()", "the animator is stopped; call finishAnimation(at:) first")
        }
        activate()
        isRunning = true
        apply()
    }

    /// `startAnimation()` after `delay` seconds on the scene's clock.
    public func startAnimation(afterDelay delay: TimeInterval) {
        guard delay.isFinite, delay > 0 else { return startAnimation() }
        activate()
        apply()
        timer?.invalidate()
        timer = SceneContext.current.schedule(after: delay) { [self] _ in startAnimation() }  // held while it waits, as UIKit holds it
    }

    /// Holds the animations where they are (at the start, the first time).
    public func pauseAnimation() {
        guard state != .stopped else { return }
        if isRunning { fraction = currentFraction(reversed: isReversed) }
        activate()
        isRunning = false
        apply()
    }

    /// How far through the animation it is (0…1, in time); settable while paused, which moves it there.
    public var fractionComplete: CGFloat {
        get { isRunning ? currentFraction(reversed: isReversed) : fraction }
        set {
            guard newValue.isFinite else {
                return UIKitErrors.shared.record("UIViewPropertyAnimator.fractionComplete", "\(newValue) is not finite; unchanged")
            }
            guard !isRunning, state != .stopped else { return }
            activate()
            fraction = min(max(newValue, 0), 1)
            apply()
        }
    }

    /// Stops where it is: the views keep what they show now; without finishing the animator is
    /// inactive and calls no completion, otherwise it waits, stopped, for `finishAnimation(at:)`.
    public func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active else { return }
        if isRunning { fraction = currentFraction(reversed: isReversed) }
        settle(at: .current)
        state = withoutFinishing ? .inactive : .stopped
    }

    /// Ends a stopped animator at `finalPosition` and calls the completions with it.
    public func finishAnimation(at finalPosition: UIViewAnimatingPosition) {
        guard state == .stopped else {
            return UIKitErrors.shared.record("UIViewPropertyAnimator.finishAnimation(at:)", "the animator is not stopped; nothing changed")
        }
        finish(at: finalPosition)
    }

    // MARK: Private

    /// Makes the animations of the blocks added so far, the first time it becomes active.
    private func activate() {
        guard state == .inactive else { return }
        state = .active
        make(blocks)
        blocks = []
    }

    private func make(_ list: [(animations: () -> Void, delayFactor: CGFloat)]) {
        for (animations, factor) in list {
            guard duration > 0 else {
                UIViewAnimationBlock.run(nil, animations)  // no time to animate in: the changes are made, the finish comes next
                continue
            }
            let offset = duration * Double(factor)
            let block = UIViewAnimationBlock(duration: duration - offset, delay: 0, options: [], timing: timing, kind: .basic,
                                             completion: UIViewAnimationCompletion(nil)) { [unowned self] spec in self.specs.append((spec, offset)) }
            block.observer = { [unowned self] view, property, old in self.changes.append((view, property, old)) }
            UIViewAnimationBlock.run(block, animations)
        }
    }

    /// Re-adds every animation for the current state: held at `fraction` while paused; running
    /// from it forwards (speed 1) or backwards (speed −1); and schedules the finish.
    private func apply() {
        let now = CACurrentMediaTime()
        runStart = now
        for (index, (spec, offset)) in specs.enumerated() {
            let animation = spec.animation.copy()
            animation.isRemovedOnCompletion = false
            animation.delegate = nil
            let local = spec.layer.localTime(atMedia: now)
            let t = Double(fraction) * duration - offset
            var begin: CFTimeInterval
            if !isRunning {
                animation.speed = 0
                animation.timeOffset = min(max(t, 0), max(animation.duration - 1e-9, 0))
                begin = local
            } else if !isReversed {
                begin = local - t
            } else {
                animation.speed = -1
                begin = local + t
            }
            animation.beginTime = begin == 0 ? .leastNonzeroMagnitude : begin  // 0 would mean "now"
            spec.layer.add(animation, forKey: key(index))
        }
        timer?.invalidate()
        timer = nil
        guard isRunning else { return }
        let remaining = (isReversed ? Double(fraction) : Double(1 - fraction)) * duration
        // The timer holds the animator while it runs, as UIKit keeps running animators alive.
        timer = SceneContext.current.schedule(after: remaining) { [self] _ in finish(at: isReversed ? .start : .end) }
    }

    private func finish(at position: UIViewAnimatingPosition) {
        settle(at: position)
        state = .inactive
        let calls = completions
        completions = []
        for completion in calls { completion(position) }
    }

    /// Removes the animations and sets the model to the position's values.
    private func settle(at position: UIViewAnimatingPosition) {
        timer?.invalidate()
        timer = nil
        isRunning = false
        let presented = changes.map { ($0.view, $0.property, value(of: $0.property, presentedIn: $0.view)) }
        for (index, (spec, _)) in specs.enumerated() { spec.layer.removeAnimation(forKey: key(index)) }
        specs = []
        UIView.performWithoutAnimation {
            switch position {
            case .end: break
            case .start: for (view, property, old) in changes.reversed() { set(property, of: view, to: old) }
            case .current: for (view, property, value) in presented { set(property, of: view, to: value) }
            }
        }
        changes = []
    }

    private func currentFraction(reversed: Bool) -> CGFloat {
        guard duration > 0 else { return reversed ? 0 : 1 }
        let moved = CGFloat((CACurrentMediaTime() - runStart) / duration)
        return min(max(reversed ? fraction - moved : fraction + moved, 0), 1)
    }

    private func key(_ index: Int) -> String { "\(Self.keyPrefix)-\(serial)-\(index)" }

    private func value(of property: ViewProperty, presentedIn view: UIView) -> Any? {
        let shown = view.layer.presentation() ?? view.layer
        switch property {
        case .position: return shown.position
        case .bounds: return shown.bounds
        case .transform: return shown.transform
        case .opacity: return shown.opacity
        case .backgroundColor: return shown.backgroundColor
        case .hidden: return shown.isHidden
        case .contents: return shown.contents
        }
    }

    private func set(_ property: ViewProperty, of view: UIView, to value: Any?) {
        switch property {
        case .position: if let p = value as? CGPoint { view.center = p }
        case .bounds: if let r = value as? CGRect { view.bounds = r }
        case .transform: if let t = value as? CATransform3D { view.transform3D = t }
        case .opacity: if let o = value as? Float { view.alpha = CGFloat(o) }
        case .backgroundColor: view.backgroundColor = (value as? CGColor).map(UIColor.init(cgColor:))
        case .hidden: if let h = value as? Bool { view.isHidden = h }
        case .contents: view.layer.contents = value as? CGImage
        }
    }

    private static func checked(_ duration: TimeInterval) -> TimeInterval {
        guard duration.isFinite, duration >= 0 else {
            UIKitErrors.shared.record("UIViewPropertyAnimator(duration:…)", "duration \(duration) is not a finite number ≥ 0; taken as 0")
            return 0
        }
        return duration
    }

    private static let serials = SerialNumbers()
    private static func nextSerial() -> Int { serials.next() }
}

/// Numbers animators' animation keys apart.
private final class SerialNumbers: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0
    func next() -> Int { lock.withLock { last += 1; return last } }
}

import Foundation
import LayercastEngine

/// A view property an animation block can animate, and the layer key path it lives at.
enum ViewProperty: String {
    case position, bounds, transform, opacity, backgroundColor, hidden, contents
}

/// One animation block while its closure runs: its timing, what kind of block it is, and the
/// completion its animations report to. The innermost block of the current thread receives the
/// property changes views make (`record`), as UIKit's animation state does.
final class UIViewAnimationBlock {
    /// How the block's animations are timed: a curve, or a spring (docs/engine-model.md §12.2).
    enum Timing {
        case curve(CAMediaTimingFunction)
        case spring(SpringSolver)
    }

    /// What the block turns property changes into.
    enum Kind {
        /// `animate`: additive position, bounds and transform; alpha and colour replace.
        case basic
        /// `animateKeyframes`: one keyframe animation per property, built at the end.
        case keyframes(KeyframeTracks)
        /// `transition(with:)`: changes switch at the flip's half-way point, or fade.
        case transition(flip: Bool)
    }

    let duration: CFTimeInterval
    let delay: CFTimeInterval
    let options: UIView.AnimationOptions
    let timing: Timing
    let kind: Kind
    let completion: UIViewAnimationCompletion
    /// Where made animations go; nil adds them to their layers at once. A property animator collects them.
    let sink: ((UIViewAnimationSpec) -> Void)?
    /// Told of every change recorded (view, property, old value), before its animations are made.
    var observer: ((UIView, ViewProperty, Any?) -> Void)?

    init(duration: CFTimeInterval, delay: CFTimeInterval, options: UIView.AnimationOptions, timing: Timing, kind: Kind,
         completion: UIViewAnimationCompletion, sink: ((UIViewAnimationSpec) -> Void)? = nil) {
        self.duration = duration
        self.delay = delay
        self.options = options
        self.timing = timing
        self.kind = kind
        self.completion = completion
        self.sink = sink
    }

    // MARK: The current block

    private final class Stack { var blocks: [UIViewAnimationBlock?] = [] }

    private static var stack: Stack {
        let key = "LayercastUIKit.UIViewAnimationBlock"
        if let stack = Thread.current.threadDictionary[key] as? Stack { return stack }
        let stack = Stack()
        Thread.current.threadDictionary[key] = stack
        return stack
    }

    /// The innermost block on this thread; nil outside blocks and inside `performWithoutAnimation`.
    static var current: UIViewAnimationBlock? { stack.blocks.last ?? nil }

    /// Runs `body` with `block` (nil: no animation) as the current block.
    static func run(_ block: UIViewAnimationBlock?, _ body: () -> Void) {
        let stack = self.stack
        stack.blocks.append(block)
        defer { stack.blocks.removeLast() }
        body()
    }

    /// Whether the current block starts non-additive animations from what is on screen
    /// (`beginFromCurrentState`): views then pass the presented value as the old one.
    static var startsFromShownValues: Bool { current?.options.contains(.beginFromCurrentState) == true }

    /// Hands a view's property change to the current block, if any.
    static func record(_ property: ViewProperty, of view: UIView, from old: Any?, to new: Any?) {
        current?.record(property, of: view, from: old, to: new)
    }

    // MARK: Recording

    func record(_ property: ViewProperty, of view: UIView, from old: Any?, to new: Any?) {
        guard !UIViewAnimationBlock.same(old, new) else { return }
        observer?(view, property, old)
        switch kind {
        case .basic: recordBasic(property, of: view, from: old, to: new)
        case .keyframes(let tracks): tracks.record(property, of: view, from: old, to: new)
        case .transition(let flip): recordTransition(property, of: view, from: old, to: new, flip: flip)
        }
    }

    /// UIKit's iOS 8 mapping: position, bounds and transform additive from (old − new) to zero;
    /// alpha and background colour from the old value (or the presented one) to the model value.
    private func recordBasic(_ property: ViewProperty, of view: UIView, from old: Any?, to new: Any?) {
        let layer = view.layer
        switch property {
        case .position:
            guard let o = old as? CGPoint, let n = new as? CGPoint else { return }
            add(basic("position", from: CGPoint(x: o.x - n.x, y: o.y - n.y), to: CGPoint.zero, additive: true), to: layer)
        case .bounds:
            guard let o = old as? CGRect, let n = new as? CGRect else { return }
            add(basic("bounds.origin", from: CGPoint(x: o.minX - n.minX, y: o.minY - n.minY), to: CGPoint.zero, additive: true), to: layer)
            add(basic("bounds.size", from: CGSize(width: o.width - n.width, height: o.height - n.height), to: CGSize.zero, additive: true), to: layer)
        case .transform:
            guard let o = old as? CATransform3D, let n = new as? CATransform3D else { return }
            if let inverse = n.inverse {
                add(basic("transform", from: CATransform3DConcat(o, inverse), to: CATransform3DIdentity, additive: true), to: layer)
            } else {
                add(basic("transform", from: o, to: nil, additive: false), to: layer)  // a singular target cannot be subtracted
            }
        case .opacity:
            add(basic("opacity", from: old, to: nil, additive: false), to: layer)
        case .backgroundColor:
            add(basic("backgroundColor", from: old ?? CGColor.clear, to: nil, additive: false), to: layer)
        case .hidden, .contents:
            return  // UIKit does not animate these outside transitions
        }
    }

    /// A flip shows the old values until half-way, then the new ones (a discrete keyframe
    /// animation, keyTimes 0 and 0.5); a cross-dissolve fades views that hide or show and
    /// interpolates the rest (docs/engine-model.md §12.4).
    private func recordTransition(_ property: ViewProperty, of view: UIView, from old: Any?, to new: Any?, flip: Bool) {
        let layer = view.layer
        let keyPath = property.rawValue
        let oldValue = old ?? (property == .backgroundColor ? CGColor.clear : nil)
        if flip {
            let switching = CAKeyframeAnimation(keyPath: keyPath)
            switching.values = [oldValue as Any, new as Any]
            switching.keyTimes = [0, 0.5]
            switching.calculationMode = .discrete
            add(configured(switching), to: layer, key: "transition.\(keyPath)")
            return
        }
        switch property {
        case .hidden:
            let hiding = (new as? Bool) == true
            let visible = basic("hidden", from: false, to: false, additive: false)
            let fade = basic("opacity", from: hiding ? layer.presentation()?.opacity ?? layer.opacity : Float(0),
                             to: hiding ? Float(0) : nil, additive: false)
            if hiding { add(visible, to: layer, key: "transition.hidden") }
            add(fade, to: layer, key: "transition.opacity")
        default:
            add(basic(keyPath, from: oldValue, to: nil, additive: false), to: layer, key: "transition.\(keyPath)")
        }
    }

    // MARK: Making and adding animations

    /// A basic (or spring) animation of `keyPath` with the block's timing, `fillMode` both.
    func basic(_ keyPath: String, from: Any?, to: Any?, additive: Bool) -> CABasicAnimation {
        let animation: CABasicAnimation
        switch timing {
        case .curve:
            animation = CABasicAnimation(keyPath: keyPath)
        case .spring(let spring):
            let s = CASpringAnimation(keyPath: keyPath)
            s.mass = spring.mass
            s.stiffness = spring.stiffness
            s.damping = spring.damping
            s.initialVelocity = spring.initialVelocity
            animation = s
        }
        animation.fromValue = from
        animation.toValue = to
        animation.isAdditive = additive
        return configured(animation)
    }

    /// Sets the block's duration, delay, fill mode, curve, repeat and autoreverse on `animation`.
    func configured<A: CAAnimation>(_ animation: A) -> A {
        animation.duration = duration
        animation.fillMode = .both
        if case .curve(let function) = timing { animation.timingFunction = function }
        if options.contains(.repeat) { animation.repeatCount = .infinity }
        if options.contains(.autoreverse) { animation.autoreverses = true }
        return animation
    }

    /// Adds `animation` under `key` (default: its key path, or for an additive animation the first
    /// free of `keyPath`, `keyPath-2`, `keyPath-3`…), starting after the block's delay.
    func add(_ animation: CAAnimation, to layer: CALayer, key: String? = nil) {
        let keyPath = (animation as? CAPropertyAnimation)?.keyPath ?? "animation"
        var key = key ?? keyPath
        if key == keyPath, (animation as? CAPropertyAnimation)?.isAdditive == true {
            var n = 1
            while layer.animation(forKey: key) != nil {
                n += 1
                key = "\(keyPath)-\(n)"
            }
        }
        if let sink { return sink(UIViewAnimationSpec(layer: layer, key: key, animation: animation)) }
        if delay > 0 { animation.beginTime = layer.localTime(atMedia: CACurrentMediaTime() + delay) }
        animation.delegate = completion
        completion.pending += 1
        layer.add(animation, forKey: key)
    }

    /// Whether two recorded values are equal (so setting them adds nothing).
    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x as CGPoint, y as CGPoint): x == y
        case let (x as CGRect, y as CGRect): x == y
        case let (x as CATransform3D, y as CATransform3D): x == y
        case let (x as Float, y as Float): x == y
        case let (x as CGColor, y as CGColor): x == y
        case let (x as Bool, y as Bool): x == y
        case let (x as CGImage, y as CGImage): x == y
        default: false
        }
    }
}

/// An animation a block made, with the layer and key it goes under.
struct UIViewAnimationSpec {
    let layer: CALayer
    let key: String
    let animation: CAAnimation
}

/// A block's completion: counts its animations and calls `completion` once all have stopped,
/// with `true` only when every one ran to its end (UIKit's `finished`).
final class UIViewAnimationCompletion: CAAnimationDelegate {
    var pending = 0
    private var allFinished = true
    private var sealed = false
    private var completion: ((Bool) -> Void)?

    init(_ completion: ((Bool) -> Void)?) { self.completion = completion }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        pending -= 1
        allFinished = allFinished && flag
        if sealed, pending == 0 { fire(allFinished) }
    }

    /// The block's closure has run: with no animation the completion runs after `delay` on the
    /// scene's clock (UIKit calls it on a later turn of the run loop), else when the last stops.
    func seal(delay: CFTimeInterval) {
        sealed = true
        guard pending == 0, completion != nil else { return }
        SceneContext.current.schedule(after: delay) { [self] _ in fire(true) }
    }

    private func fire(_ finished: Bool) {
        let block = completion
        completion = nil
        block?(finished)
    }
}

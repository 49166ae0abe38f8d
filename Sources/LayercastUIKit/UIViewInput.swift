import Foundation
import LayercastEngine
import LayercastSceneAPI

/// Feeds a scene's taps and drags to the gesture recognizers and controls of a view tree. Call it
/// from the scene's `tap` and `drag` with what they were given: the hit is the model layer under
/// the point in the presentation tree at the tapper's time, as for any scene (docs/engine-model.md §12.6).
public final class UIViewInput {
    /// The view whose tree takes input.
    public let rootView: UIView
    private var pans: [String: UIPanGestureRecognizer] = [:]

    /// Input for the tree under `rootView`.
    public init(rootView: UIView) { self.rootView = rootView }

    /// A tap: from the view of the hit layer up, the first view with an enabled tap recognizer
    /// (which counts the tap) or an enabled `UIControl` (which sends `touchUpInside` and
    /// `primaryActionTriggered`) takes it. True when a recognizer fired or a control sent.
    @discardableResult
    public func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval) -> Bool {
        var view = receiver(of: hit)
        while let v = view {
            let taps = (v.gestureRecognizers ?? []).compactMap { $0 as? UITapGestureRecognizer }.filter(\.isEnabled)
            if !taps.isEmpty {
                return taps.map { $0.tapped(at: point, time: time) }.contains(true)
            }
            if let control = v as? UIControl, control.isEnabled {
                control.sendActions(for: [.touchUpInside, .primaryActionTriggered])
                return true
            }
            view = v.superview
        }
        return false
    }

    /// A drag step of `client`: `began` picks the first enabled pan recognizer from the hit view
    /// up; later steps go to it whatever they hit. True when a recognizer took the step.
    @discardableResult
    public func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String) -> Bool {
        switch phase {
        case .began:
            var view = receiver(of: hit)
            while let v = view {
                if let pan = (v.gestureRecognizers ?? []).lazy.compactMap({ $0 as? UIPanGestureRecognizer }).first(where: \.isEnabled) {
                    pans[client] = pan
                    pan.begin(at: point, time: time)
                    return true
                }
                view = v.superview
            }
            return false
        case .moved:
            guard let pan = pans[client] else { return false }
            pan.move(to: point, time: time)
            return true
        case .ended, .cancelled:
            guard let pan = pans.removeValue(forKey: client) else { return false }
            pan.end(at: point, time: time, cancelled: phase == .cancelled)
            return true
        }
    }

    /// The view that receives input hitting `layer`: the view owning it or its nearest ancestor
    /// layer, then above the topmost view on the way to the root that is hidden, has
    /// `isUserInteractionEnabled` false or alpha below 0.01 (so a label in a button gives the button).
    func receiver(of layer: CALayer?) -> UIView? {
        var owners: [ObjectIdentifier: UIView] = [:]
        func collect(_ view: UIView) {
            owners[ObjectIdentifier(view.layer)] = view
            view.subviews.forEach(collect)
        }
        collect(rootView)
        var current = layer
        var found: UIView?
        while let l = current, found == nil {
            found = owners[ObjectIdentifier(l)]
            current = l.superlayer
        }
        guard var view = found else { return nil }
        var chain: [UIView] = [view]
        while let parent = view.superview, view !== rootView {
            chain.append(parent)
            view = parent
        }
        if let blocked = chain.lastIndex(where: { !$0.isUserInteractionEnabled || $0.isHidden || $0.alpha < 0.01 }) {
            return blocked + 1 < chain.count ? chain[blocked + 1] : nil
        }
        return chain.first
    }
}

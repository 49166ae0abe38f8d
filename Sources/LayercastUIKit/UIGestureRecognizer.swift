import Foundation
import LayercastEngine

/// The touch a recognizer is handed, as UIKit's `UIEvent` (kept for signatures such as `hitTest(_:with:)`).
public final class UIEvent {}

/// A recognizer attached to a view; `UIViewInput` feeds it the scene's taps and drags.
/// UIKit's target-action form needs the Objective-C runtime: a handler closure stands in for it.
open class UIGestureRecognizer {
    /// Where a recognizer is in its gesture, with UIKit's raw values.
    public enum State: Int, Sendable {
        /// Waiting for its gesture.
        case possible
        /// A continuous gesture (a pan) started.
        case began
        /// A continuous gesture moved.
        case changed
        /// The gesture ended (a tap: recognized).
        case ended
        /// The gesture was cancelled.
        case cancelled
        /// The gesture was not this recognizer's.
        case failed
        /// A discrete gesture (a tap) was recognized: `ended`.
        public static let recognized = State.ended
    }

    /// The view it is attached to.
    public internal(set) weak var view: UIView?
    /// Whether it takes input.
    open var isEnabled = true
    /// Its state while its handler runs (`possible` between gestures).
    public internal(set) var state: State = .possible
    private var handlers: [(UIGestureRecognizer) -> Void] = []
    /// The touch in scene coordinates.
    var scenePoint = CGPoint.zero

    /// A recognizer calling `handler` when it recognizes its gesture.
    public init(handler: ((UIGestureRecognizer) -> Void)? = nil) {
        if let handler { handlers.append(handler) }
    }

    /// Also calls `handler`, after the earlier ones.
    public func addTarget(_ handler: @escaping (UIGestureRecognizer) -> Void) { handlers.append(handler) }

    /// Where the touch is, in `view`'s coordinates (the scene's when nil).
    public func location(in view: UIView?) -> CGPoint {
        view.map { $0.layer.convert(scenePoint, from: nil) } ?? scenePoint
    }

    /// Sets the state and calls the handlers.
    func send(_ state: State) {
        self.state = state
        for handler in handlers { handler(self) }
    }
}

/// Recognizes taps: its handler runs with state `.ended` once `numberOfTapsRequired` taps have
/// landed on its view, each within 0.35 s of the last.
open class UITapGestureRecognizer: UIGestureRecognizer {
    /// How many taps make the gesture (1 by default).
    open var numberOfTapsRequired = 1
    /// The longest pause between taps of one gesture, in seconds.
    public static let tapInterval: CFTimeInterval = 0.35
    private var count = 0
    private var lastTap = -CFTimeInterval.infinity

    /// A tap recognizer calling `handler` with itself.
    public convenience init(handler: @escaping (UITapGestureRecognizer) -> Void) {
        self.init()
        addTarget { handler($0 as! UITapGestureRecognizer) }
    }

    /// Counts a tap at `time`; true when it completes the gesture (the handlers ran).
    func tapped(at point: CGPoint, time: CFTimeInterval) -> Bool {
        count = time - lastTap <= Self.tapInterval ? count + 1 : 1
        lastTap = time
        guard count >= max(numberOfTapsRequired, 1) else { return false }
        count = 0
        scenePoint = point
        send(.ended)
        state = .possible
        return true
    }
}

/// Recognizes drags: `.began` at the first move, `.changed` at the next, `.ended` or `.cancelled`
/// at the end; `translation(in:)` and `velocity(in:)` as in UIKit.
open class UIPanGestureRecognizer: UIGestureRecognizer {
    private var anchor = CGPoint.zero
    private var previous: (point: CGPoint, time: CFTimeInterval)?
    private var latest: (point: CGPoint, time: CFTimeInterval) = (.zero, 0)

    /// A pan recognizer calling `handler` with itself.
    public convenience init(handler: @escaping (UIPanGestureRecognizer) -> Void) {
        self.init()
        addTarget { handler($0 as! UIPanGestureRecognizer) }
    }

    /// How far the touch moved since the drag began (or since `setTranslation`), in `view`'s coordinates.
    public func translation(in view: UIView?) -> CGPoint {
        let now = location(in: view), start = Self.map(anchor, into: view)
        return CGPoint(x: now.x - start.x, y: now.y - start.y)
    }

    /// Makes the translation so far `translation` (in `view`'s coordinates), as UIKit's.
    public func setTranslation(_ translation: CGPoint, in view: UIView?) {
        let now = location(in: view)
        let start = CGPoint(x: now.x - translation.x, y: now.y - translation.y)
        anchor = view.map { $0.layer.convert(start, to: nil) } ?? start
    }

    /// The speed of the touch between its last two steps, in `view`'s points per second.
    public func velocity(in view: UIView?) -> CGPoint {
        guard let previous, latest.time > previous.time else { return .zero }
        let a = Self.map(previous.point, into: view), b = Self.map(latest.point, into: view)
        let dt = CGFloat(latest.time - previous.time)
        return CGPoint(x: (b.x - a.x) / dt, y: (b.y - a.y) / dt)
    }

    /// A drag began at `point`: nothing is recognized until it moves.
    func begin(at point: CGPoint, time: CFTimeInterval) {
        anchor = point
        previous = nil
        latest = (point, time)
        scenePoint = point
        state = .possible
    }

    /// A drag step: `.began` on the first move, `.changed` afterwards.
    func move(to point: CGPoint, time: CFTimeInterval) {
        previous = latest
        latest = (point, time)
        scenePoint = point
        send(state == .possible ? .began : .changed)
    }

    /// The drag ended or was cancelled: `.ended`/`.cancelled` if it had begun.
    func end(at point: CGPoint, time: CFTimeInterval, cancelled: Bool) {
        defer { state = .possible }
        guard state != .possible else { return }
        if point != latest.point {
            previous = latest
            latest = (point, time)
        }
        scenePoint = point
        send(cancelled ? .cancelled : .ended)
    }

    private static func map(_ scenePoint: CGPoint, into view: UIView?) -> CGPoint {
        view.map { $0.layer.convert(scenePoint, from: nil) } ?? scenePoint
    }
}

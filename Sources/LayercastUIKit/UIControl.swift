import Foundation
import LayercastEngine

/// A handler a control calls for an event, as UIKit's `UIAction` (iOS 14).
public final class UIAction {
    /// A name for the action.
    public let title: String
    /// What the action does; it is passed the action.
    public let handler: (UIAction) -> Void
    /// The control that sent it, while its handler runs.
    public private(set) weak var sender: UIControl?

    /// An action running `handler`.
    public init(title: String = "", handler: @escaping (UIAction) -> Void) {
        self.title = title
        self.handler = handler
    }

    func perform(from control: UIControl) {
        sender = control
        handler(self)
        sender = nil
    }
}

/// A view that sends actions for events: `UIViewInput` sends `touchUpInside` and
/// `primaryActionTriggered` for a tap on it while it is enabled.
open class UIControl: UIView {
    /// The events a control sends, with UIKit's raw values.
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// A touch went down.
        public static let touchDown = Event(rawValue: 1 << 0)
        /// A tap: a touch went down and up inside.
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// The value changed.
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// The control's main action (a button's tap).
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
    }

    /// A control's state, with UIKit's raw values.
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// No other state.
        public static let normal = State([])
        /// Being touched.
        public static let highlighted = State(rawValue: 1 << 0)
        /// Disabled.
        public static let disabled = State(rawValue: 1 << 1)
        /// Selected.
        public static let selected = State(rawValue: 1 << 2)
    }

    private var actions: [(action: UIAction, events: Event)] = []

    /// Whether it takes taps.
    open var isEnabled = true { didSet { stateChanged() } }
    /// Whether it is selected (a toggled like button).
    open var isSelected = false { didSet { stateChanged() } }
    /// Whether it is being touched; taps here are instantaneous, so this stays false unless set.
    open var isHighlighted = false { didSet { stateChanged() } }

    /// The current state.
    public var state: State {
        var state: State = .normal
        if isHighlighted { state.insert(.highlighted) }
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }

    /// Runs `action` for `events`.
    public func addAction(_ action: UIAction, for events: Event) { actions.append((action, events)) }

    /// Stops running `action` for `events`.
    public func removeAction(_ action: UIAction, for events: Event) {
        actions.removeAll { $0.action === action && !$0.events.isDisjoint(with: events) }
    }

    /// Runs the actions registered for any of `events`, in the order they were added.
    public func sendActions(for events: Event) {
        for (action, registered) in actions where !registered.isDisjoint(with: events) { action.perform(from: self) }
    }

    /// Called when `isEnabled`, `isSelected` or `isHighlighted` changes; subclasses update their look.
    open func stateChanged() {}
}

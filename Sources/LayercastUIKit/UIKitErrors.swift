import Foundation

/// A UIKit call Layercast refused: what UIKit would trap on or leave undefined (a NaN frame, a
/// view added to itself, a negative duration). The call changed nothing it names in `message`.
public struct UIKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The API called, e.g. `UIView.frame`.
    public let call: String
    /// What was wrong and what happened instead.
    public let message: String

    public var description: String { "\(call): \(message)" }
}

/// Every `UIKitError` of the process: counted, the latest kept, the first of each call passed to
/// `report` (a server logs it). Nothing stops the scene (docs/engine-model.md §12.7).
public final class UIKitErrors: @unchecked Sendable {
    /// The one log the UIKit layer reports to.
    public static let shared = UIKitErrors()

    private let lock = NSLock()
    private var total = 0
    private var latest: UIKitError?
    private var reportedCalls: Set<String> = []
    private var hook: (@Sendable (UIKitError) -> Void)?

    private init() {}

    /// How many calls were refused since the process started.
    public var count: Int { lock.withLock { total } }

    /// The most recent refusal, nil before the first.
    public var last: UIKitError? { lock.withLock { latest } }

    /// Called with the first refusal of each call, outside the lock (a server logs it); nil by default.
    public var report: (@Sendable (UIKitError) -> Void)? {
        get { lock.withLock { hook } }
        set { lock.withLock { hook = newValue } }
    }

    /// Records a refusal of `call`.
    func record(_ call: String, _ message: String) {
        let error = UIKitError(call: call, message: message)
        let (isFirst, hook) = lock.withLock {
            total += 1
            latest = error
            return (reportedCalls.insert(call).inserted, self.hook)
        }
        if isFirst { hook?(error) }
    }
}

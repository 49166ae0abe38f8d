import Foundation

/// Animations `add(_:forKey:)` found it cannot run (docs/engine-model.md §11): counted, the first of
/// each key path passed to `report`, and in debug builds a stop with the message.
public final class UnsupportedAnimations: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    private var reportedKeyPaths: Set<String> = []
    private var hook: (@Sendable (_ keyPath: String, _ message: String) -> Void)?
    #if DEBUG
    private var fatal = true
    #else
    private var fatal = false
    #endif

    init() {}

    /// How many animations were refused since the process started (for /metrics).
    public var count: Int { lock.withLock { total } }

    /// Called once per key path with the validation message, outside the engine's lock (the server
    /// logs it); nil by default.
    public var report: (@Sendable (_ keyPath: String, _ message: String) -> Void)? {
        get { lock.withLock { hook } }
        set { lock.withLock { hook = newValue } }
    }

    /// Whether a refusal stops the process with the message: true in debug builds, false in release.
    public var isFatal: Bool {
        get { lock.withLock { fatal } }
        set { lock.withLock { fatal = newValue } }
    }

    /// Records a refused animation on `keyPath`.
    func record(keyPath: String, message: String) {
        let (isFirst, isFatal, hook) = lock.withLock {
            total += 1
            return (reportedKeyPaths.insert(keyPath).inserted, fatal, self.hook)
        }
        precondition(!isFatal, "add(_:forKey:) cannot run this animation: \(message)")
        if isFirst { hook?(keyPath, message) }
    }
}

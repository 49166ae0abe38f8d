import Foundation
import LayercastEngine
import LayercastUIKit

/// A scene context on a manual clock, as a room runs a scene: code runs inside it and `advance`
/// delivers animation stops, completions and timers at their exact times.
final class SceneClock {
    let clock = ManualClock()
    let context: SceneContext
    /// A root layer standing for the scene's, so views are in a tree.
    let root = CALayer()

    init() {
        context = SceneContext(clock: clock)
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
    }

    /// Runs `body` inside the context at the current time.
    func run<T>(_ body: () throws -> T) rethrows -> T { try context.run(body) }

    /// Moves the clock to `time`, delivering what is due.
    func advance(to time: CFTimeInterval) {
        clock.now = time
        context.advance(to: time)
    }

    /// A view of `frame` in the root layer.
    func view(_ frame: CGRect) -> UIView {
        let view = UIView(frame: frame)
        root.addSublayer(view.layer)
        return view
    }
}

import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastWire

/// A scene run as a room runs it, with a manual clock and no sockets: ticked at `fps`, its input
/// resolved by the room's own code (`SceneStage`), its frames built by the room's
/// `DisplayListBuilder`, its claims committed to a `HarnessLedger`. It drives the scene only,
/// not its controller: a test plays the controller's part (admin commands, schedules) with
/// `perform(_:)`. Use from one thread.
///
/// ```swift
/// let harness = SceneHarness(RadarScene.self, seed: 42)
/// harness.run(to: 3)
/// let result = harness.tap(at: CGPoint(x: 207, y: 368))
/// ```
public final class SceneHarness<S: Scene> {
    /// The scene under test, as its own type.
    public let scene: S
    /// The scene's stage: its context and clock, and the tap and drag paths the room uses.
    public let stage: SceneStage
    /// Frames per second the harness ticks at, as the room's `--fps`.
    public let fps: Int
    /// Where the scene's claims are committed.
    public let ledger = HarnessLedger()
    /// Events the scene announced (on ticks and on input) since the last `takeEvents()`, oldest first.
    public private(set) var events: [SceneEvent] = []
    /// What a client is sent for the newest frame, the one at `now`.
    public private(set) var displayList = DisplayList()

    private let builder = DisplayListBuilder(maxParticles: 2_000)  // `serve`'s default (HubConfiguration)
    /// The number of the newest tick on the 1/fps grid.
    private var tick = 0

    /// Creates the scene with `makeScene` at media time 0, as a room does, and makes frame 0.
    /// `fps` is 1…120, as the server's `--fps`.
    public init(fps: Int = 30, _ makeScene: () -> S) {
        precondition((1...120).contains(fps), "fps must be between 1 and 120")
        self.fps = fps
        (stage, scene) = SceneStage.make(makeScene)
        frame()
    }

    /// Creates `type` with `seed` (its `init(seed:)`) at media time 0 and makes frame 0.
    public convenience init(_ type: S.Type, seed: UInt64, fps: Int = 30) {
        self.init(fps: fps) { S(seed: seed) }
    }

    /// Takes over `scene` on a `stage` made elsewhere (a scene rebuilt by a replay), at the stage's
    /// time, and makes a frame there; ticks go on from the 1/fps grid. `scene` is the stage's scene.
    public init(stage: SceneStage, scene: S, fps: Int = 30) {
        precondition((1...120).contains(fps), "fps must be between 1 and 120")
        precondition(stage.scene === scene, "scene must be the stage's scene")
        self.fps = fps
        self.stage = stage
        self.scene = scene
        tick = Int((stage.now * Double(fps)).rounded(.down))
        frame()
    }

    /// The media time the scene has been run to.
    public var now: CFTimeInterval { stage.now }

    /// The most particle records the emitter items hold together, as the server's `--max-particles`.
    public var maxParticles: Int {
        get { builder.maxParticles }
        set { builder.maxParticles = newValue }
    }

    /// Runs the scene to media time `time`, ticking as a room does: a frame at every multiple of
    /// 1/fps on the way and one at `time` itself, each after delivering the timers and animation
    /// events due by then. A time before `now` does nothing.
    public func run(to time: CFTimeInterval) {
        guard time > now else { return }
        while true {
            let next = Double(tick + 1) / Double(fps)
            guard next <= time else { break }
            tick += 1
            step(to: next)
        }
        if now < time { step(to: time) }
    }

    /// Runs the scene `seconds` further (`run(to: now + seconds)`).
    public func advance(by seconds: CFTimeInterval) {
        run(to: now + seconds)
    }

    /// The model layer a tap at `point` seen at `viewTime` (default `now`) would hit, resolved as
    /// the room resolves it (`SceneStage.resolve`), without telling the scene.
    public func hit(at point: CGPoint, viewTime: CFTimeInterval? = nil) -> CALayer? {
        stage.resolve(point, viewTime: viewTime ?? now).hit
    }

    /// A tap at `point` by `tapper` (default: client and player `c1`), seen at `viewTime` (default
    /// `now`; clamped to the last 0.3 s as in a room), through the room's tap path: the scene
    /// decides; a claim is committed to `ledger` and confirmed with the player's running total.
    /// Its events are also appended to `events`.
    @discardableResult
    public func tap(at point: CGPoint, viewTime: CFTimeInterval? = nil, by tapper: Tapper = Tapper(client: "c1")) -> TapResult {
        let result = stage.tap(at: point, viewTime: viewTime ?? now, now: now, by: tapper, awarding: ledger)
        events += result.events
        return result
    }

    /// A drag step at `point` by `client`, seen at `viewTime` (default `now`), resolved like a tap.
    /// Returns the step's events, which are also appended to `events`.
    @discardableResult
    public func drag(_ phase: DragPhase, at point: CGPoint, viewTime: CFTimeInterval? = nil, by client: String = "c1") -> [SceneEvent] {
        let stepEvents = stage.drag(phase, at: point, viewTime: viewTime ?? now, now: now, by: client)
        events += stepEvents
        return stepEvents
    }

    /// Runs `command` on the scene inside its context at `now`, as a controller runs an admin
    /// command (`startRain`, `stopRain`), and appends what the scene announced to `events`.
    @discardableResult
    public func perform<R>(_ command: (S) throws -> R) rethrows -> R {
        let result = try stage.run { try command(scene) }
        events += stage.takeEvents()
        return result
    }

    /// Returns `events` and empties it.
    public func takeEvents() -> [SceneEvent] {
        defer { events = [] }
        return events
    }

    /// The presentation copy of `layer` at media time `time` (default `now`): its properties as a
    /// client sees them. Nil for a layer that is itself a presentation copy.
    public func presentation<L: CALayer>(of layer: L, at time: CFTimeInterval? = nil) -> L? {
        layer.presentation(at: time ?? now)
    }

    /// The first layer named `name` in the scene's tree, depth first from the root.
    public func layer(named name: String) -> CALayer? {
        func find(_ layer: CALayer) -> CALayer? {
            if layer.name == name { return layer }
            for child in layer.sublayers ?? [] {
                if let found = find(child) { return found }
            }
            return nil
        }
        return find(scene.layer)
    }

    /// Advances the stage to `time`, collects the scene's events and builds the frame, as `Room.tick`.
    private func step(to time: CFTimeInterval) {
        stage.advance(to: time)
        events += stage.takeEvents()
        frame()
    }

    private func frame() {
        displayList = stage.run { builder.build(scene.layer, at: stage.now) }
    }
}

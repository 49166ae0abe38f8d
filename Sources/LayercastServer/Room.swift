import Foundation
import LayercastEngine
import LayercastJSON
import LayercastScenes
import LayercastWire

/// One running scene instance and its clients: ticked, built and encoded once per frame for all.
final class Room {
    let scene: any Scene
    let info: SceneInfo
    let name: String
    let context: SceneContext
    private let clock = ManualClock()
    /// Monotonic time of media time 0.
    let startedAt: Double
    var connections: [Connection] = []
    var emptySince: Double?

    private let builder = DisplayListBuilder()
    /// The most particles a frame evaluates over the room's emitter layers (`--max-particles`).
    var maxParticles: Int {
        get { builder.maxParticles }
        set { builder.maxParticles = newValue }
    }
    private let encoder = FrameEncoder()
    /// The newest frame: its number, media time and display list.
    private(set) var frameNumber = -1
    private(set) var frameTime = 0.0
    private var list = DisplayList()
    /// The newest frame's delta and full encodings; each is made at most once, when first needed.
    private var delta: FrameDelta?
    private var deltaMessage: EncodedMessage?
    private var fullMessage: EncodedMessage?

    /// Server-side bookkeeping of a rain room (its ledger rain, schedule); nil for other scenes.
    var rain: RainRoomState?

    /// Creates the scene with `makeScene` at media time 0; its root layer's bounds give the
    /// scene size that `welcome` announces.
    init(name: String, now: Double, makeScene: () -> any Scene) {
        self.name = name
        startedAt = now
        context = SceneContext(clock: clock)
        scene = context.run(makeScene)
        var info = type(of: scene).info
        info.size = scene.layer.bounds.size
        self.info = info
    }

    /// Media time of the monotonic instant `now`.
    func mediaTime(at now: Double) -> Double { max(clock.now, now - startedAt) }

    /// Runs the scene up to `now` (timers, animation events).
    func advance(to now: Double) {
        clock.now = mediaTime(at: now)
        context.advance(to: clock.now)
    }

    /// Advances to `now` and makes the next frame; encodings are made lazily.
    func tick(at now: Double) {
        advance(to: now)
        let next = context.run { builder.build(scene.layer, at: clock.now) }
        delta = FrameDelta.from(list, to: next)
        list = next
        frameNumber += 1
        frameTime = clock.now
        deltaMessage = nil
        fullMessage = nil
    }

    /// The newest frame as a delta against the one before; nil for frame 0.
    func deltaFrame(_ metrics: inout Metrics) -> EncodedMessage? {
        guard let delta, frameNumber > 0 else { return nil }
        if let deltaMessage { return deltaMessage }
        let message = EncodedMessage(encoder.delta(delta, number: frameNumber, time: frameTime))
        metrics.deltaFramesEncoded += 1
        deltaMessage = message
        return message
    }

    /// The newest frame in full.
    func fullFrame(_ metrics: inout Metrics) -> EncodedMessage {
        if let fullMessage { return fullMessage }
        let message = EncodedMessage(encoder.full(list, number: frameNumber, time: frameTime))
        metrics.fullFramesEncoded += 1
        fullMessage = message
        return message
    }

    /// Runs `body` in the scene's context after advancing to `now`, with the time an input seen
    /// at `viewTime` is resolved at (docs/protocol.md: clamped to the last 300 ms) and the
    /// room's media time.
    func input<T>(viewTime: Double, at now: Double, _ body: (_ time: CFTimeInterval, _ now: CFTimeInterval) -> T) -> T {
        advance(to: now)
        let time = Self.resolutionTime(viewTime: viewTime, now: clock.now)
        return context.run { body(time, clock.now) }
    }

    /// Resolves a tap: hit-tests the presentation tree at the resolution time and hands the
    /// model layer to the scene.
    func tap(x: Double, y: Double, viewTime: Double, by client: String, at now: Double) -> [SceneEvent] {
        input(viewTime: viewTime, at: now) { time, _ in
            let point = CGPoint(x: x, y: y)
            scene.tap(scene.layer.hitTest(point, at: time), at: point, time: time, by: client)
            return scene.takeEvents()
        }
    }

    /// A drag step, resolved like a tap.
    func drag(_ phase: DragPhase, x: Double, y: Double, viewTime: Double, by client: String, at now: Double) -> [SceneEvent] {
        input(viewTime: viewTime, at: now) { time, _ in
            let point = CGPoint(x: x, y: y)
            scene.drag(phase, hit: scene.layer.hitTest(point, at: time), at: point, time: time, by: client)
            return scene.takeEvents()
        }
    }

    /// Events the scene raised on its own (timers) since the last call.
    func takeEvents() -> [SceneEvent] { context.run { scene.takeEvents() } }

    /// The media time a tap is evaluated at: `viewTime` clamped to `[now − 0.3, now]`.
    static func resolutionTime(viewTime: Double, now: Double) -> Double {
        min(now, max(now - tapLookBehind, viewTime))
    }

    /// How far back a client's view time may reach, in seconds.
    static let tapLookBehind = 0.3
}

import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneKit
import LayercastScenes
import LayercastWire

/// One running scene and its clients: ticked, built and encoded once per frame for all. Its
/// scene-specific behaviour is its `host`'s.
final class Room: HostedRoom {
    let host: any SceneHost
    var stage: SceneStage { host.stage }
    let info: SceneInfo
    let name: String
    /// Monotonic time of media time 0.
    let startedAt: Double
    var clients: [Client] = []
    var emptySince: Double?

    /// The transport: its clock is the room's `now`, its headroom the encodings'.
    private unowned let clock: any HubTransport
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

    /// A room around `host`'s scene, created at media time 0; the root layer's bounds give the
    /// scene size that `welcome` announces.
    init(name: String, host: any SceneHost, now: Double, clock: any HubTransport) {
        self.name = name
        self.host = host
        self.clock = clock
        startedAt = now
        var info = type(of: host.stage.scene).info
        info.size = host.stage.scene.layer.bounds.size
        self.info = info
    }

    /// Now, on the transport's monotonic clock (`HostedRoom`).
    var now: Double { clock.now }
    var hasClients: Bool { !clients.isEmpty }
    var playerCount: Int { Set(clients.compactMap { $0.player?.id }).count }

    /// Media time of the monotonic instant `now`.
    func mediaTime(at now: Double) -> Double { max(stage.now, now - startedAt) }

    /// Runs the scene up to `now` (timers, animation events).
    func advance(to now: Double) { stage.advance(to: mediaTime(at: now)) }

    /// Advances to `now` and makes the next frame; encodings are made lazily.
    func tick(at now: Double) {
        advance(to: now)
        let next = stage.run { builder.build(stage.scene.layer, at: stage.now) }
        delta = FrameDelta.from(list, to: next)
        list = next
        frameNumber += 1
        frameTime = stage.now
        deltaMessage = nil
        fullMessage = nil
    }

    /// The newest frame as a delta against the one before; nil for frame 0.
    func deltaFrame(_ metrics: inout Metrics) -> EncodedMessage? {
        guard let delta, frameNumber > 0 else { return nil }
        if let deltaMessage { return deltaMessage }
        let message = EncodedMessage(encoder.delta(delta, number: frameNumber, time: frameTime), headroom: clock.headroom)
        metrics.deltaFramesEncoded += 1
        deltaMessage = message
        return message
    }

    /// The newest frame in full.
    func fullFrame(_ metrics: inout Metrics) -> EncodedMessage {
        if let fullMessage { return fullMessage }
        let message = EncodedMessage(encoder.full(list, number: frameNumber, time: frameTime), headroom: clock.headroom)
        metrics.fullFramesEncoded += 1
        fullMessage = message
        return message
    }

    /// A tap through the scene's one tap path (`SceneStage.tap`), committed through the host's
    /// awarding service.
    func tap(x: Double, y: Double, viewTime: Double, by tapper: Tapper, at now: Double) -> TapResult {
        stage.tap(at: CGPoint(x: x, y: y), viewTime: viewTime, now: mediaTime(at: now), by: tapper, awarding: host.awarding)
    }

    /// A drag step, resolved like a tap.
    func drag(_ phase: DragPhase, x: Double, y: Double, viewTime: Double, by client: String, at now: Double) -> [SceneEvent] {
        stage.drag(phase, at: CGPoint(x: x, y: y), viewTime: viewTime, now: mediaTime(at: now), by: client)
    }

    /// Events the scene raised on its own (timers) since the last call.
    func takeEvents() -> [SceneEvent] { stage.takeEvents() }
}

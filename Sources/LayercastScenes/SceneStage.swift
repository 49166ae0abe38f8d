import Foundation
import LayercastEngine
import LayercastSceneKit

/// A scene on its own manual clock, in media time: where a room, `layercast replay` and the tests
/// advance it and hand it input. Use from one thread.
public final class SceneStage {
    /// The scene, made inside `context`.
    public let scene: any Scene
    /// The scene's context: its manual clock, timers, transactions and animation events.
    public let context: SceneContext
    private let clock = ManualClock()

    /// How far back a client's view time may reach, in seconds (docs/protocol.md).
    public static let tapLookBehind = 0.3

    /// Creates the scene with `makeScene` inside its context at media time 0.
    public init(makeScene: () -> any Scene) {
        context = SceneContext(clock: clock)
        scene = context.run(makeScene)
    }

    /// A stage for the scene `makeScene` creates, and that scene as its own type.
    public static func make<S: Scene>(_ makeScene: () -> S) -> (stage: SceneStage, scene: S) {
        var made: S?
        let stage = SceneStage {
            let scene = makeScene()
            made = scene
            return scene
        }
        return (stage, made!)
    }

    /// The media time the scene has been advanced to.
    public var now: CFTimeInterval { clock.now }

    /// Runs the scene up to media time `time` (timers, animation events); never backwards.
    public func advance(to time: CFTimeInterval) {
        clock.now = max(clock.now, time)
        context.advance(to: clock.now)
    }

    /// Runs `body` inside the scene's context.
    public func run<T>(_ body: () throws -> T) rethrows -> T { try context.run(body) }

    /// Events the scene announced since the last call.
    public func takeEvents() -> [SceneEvent] { context.run { scene.takeEvents() } }

    /// The media time a tap is evaluated at: `viewTime` clamped to `[now − 0.3, now]`.
    public static func resolutionTime(viewTime: CFTimeInterval, now: CFTimeInterval) -> CFTimeInterval {
        min(now, max(now - tapLookBehind, viewTime))
    }

    /// Where input at `point`, seen by its client at `viewTime`, lands: the model layer under it in
    /// the presentation tree at the resolution time (nil for none), and that time. The one hit
    /// resolution, for taps, drags and `LayercastSceneTesting` alike.
    public func resolve(_ point: CGPoint, viewTime: CFTimeInterval) -> (hit: CALayer?, time: CFTimeInterval) {
        let time = Self.resolutionTime(viewTime: viewTime, now: clock.now)
        return (context.run { scene.layer.hitTest(point, at: time) }, time)
    }

    /// The one tap path, for live play and replay alike. After advancing to `now`: decide (the
    /// scene hit-tests at the resolution time and answers or claims, inside its context);
    /// commit a claim through `awarding` (outside the context, so no scene state is held across
    /// an fsync); confirm it in the scene, or, when the commit failed, announce nothing. The
    /// result's events are the scene's, for the room to broadcast.
    public func tap(at point: CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval, by tapper: Tapper,
                    awarding: any Awarding) -> TapResult {
        advance(to: now)
        let (hit, time) = resolve(point, viewTime: viewTime)
        let outcome = context.run { scene.tap(hit, at: point, time: time, by: tapper) }
        guard case .claim(let claim) = outcome else { return TapResult(outcome: outcome, events: takeEvents()) }
        let total: Int
        do {
            total = try awarding.commit(Award(claim: claim, player: tapper.player, name: tapper.name, serverTime: clock.now))
        } catch {
            return TapResult(outcome: outcome, events: takeEvents(), failure: "\(error)")
        }
        context.run { scene.confirm(claim, total: total, for: tapper) }
        return TapResult(outcome: outcome, events: takeEvents(), awarded: true)
    }

    /// A drag step, resolved like a tap (nothing to commit).
    public func drag(_ phase: DragPhase, at point: CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval,
                     by client: String) -> [SceneEvent] {
        advance(to: now)
        let (hit, time) = resolve(point, viewTime: viewTime)
        context.run { scene.drag(phase, hit: hit, at: point, time: time, by: client) }
        return takeEvents()
    }
}

/// How a tap ended (`SceneStage.tap`): what the scene decided, its events, whether a claim was
/// committed and confirmed, and why the commit failed when it did.
public struct TapResult {
    /// What the scene made of the tap.
    public var outcome: TapOutcome
    /// The events the tap raised, in order.
    public var events: [SceneEvent]
    /// Whether a claim was committed and confirmed.
    public var awarded = false
    /// The commit's error; the claim was not awarded and nothing was announced.
    public var failure: String?

    /// A result of `outcome` with `events`; not awarded and no failure by default.
    public init(outcome: TapOutcome, events: [SceneEvent], awarded: Bool = false, failure: String? = nil) {
        self.outcome = outcome
        self.events = events
        self.awarded = awarded
        self.failure = failure
    }
}

import Foundation
import LayercastEngine

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

    /// Runs the scene up to media time `time` (timers, animation events); never backwards. While a
    /// claim is being committed the scene is held: the advance waits until the commit has settled.
    public func advance(to time: CFTimeInterval) {
        if isHeld {
            if case .advance(let last) = held.last { held[held.count - 1] = .advance(max(last, time)) } else { held.append(.advance(time)) }
            return
        }
        clock.now = max(clock.now, time)
        context.advance(to: clock.now)
    }

    /// Whether the scene is held: while a claim is being committed (or a controller waits on the
    /// ledger, `hold()`), its clock stands still and taps, drags and advances wait, in order, so
    /// the scene decides everything exactly as it would with an instant ledger (and as
    /// `layercast replay` does).
    public private(set) var isHeld = false

    /// Holds the scene (`isHeld`) until the returned function is called: for a controller that
    /// waits on the ledger for something the scene must do at this media time (a round's start).
    public func hold() -> () -> Void {
        precondition(!isHeld, "the scene is already held")
        isHeld = true
        return { [self] in
            isHeld = false
            releaseHeld()
        }
    }
    /// What waits for the commit in progress, in arrival order.
    private var held: [HeldInput] = []

    private enum HeldInput {
        case advance(CFTimeInterval)
        case tap(CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval, tapper: Tapper, awarding: any Awarding, done: (TapResult) -> Void)
        case drag(DragPhase, CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval, client: String)
    }

    /// Runs `body` inside the scene's context.
    public func run<T>(_ body: () throws -> T) rethrows -> T { try context.run(body) }

    /// Events the scene announced since the last call; none while the scene is held (they wait
    /// for what holds it: a round's end is announced once it is recorded).
    public func takeEvents() -> [SceneEvent] { isHeld ? [] : context.run { scene.takeEvents() } }

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
    /// an fsync), holding the scene until it settles; confirm it in the scene, or, when the commit
    /// failed, announce nothing. `done` gets the result, with the scene's events for the room to
    /// broadcast: at once, or when the commit (or one ahead of this tap) settles.
    public func tap(at point: CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval, by tapper: Tapper,
                    awarding: any Awarding, done: @escaping (TapResult) -> Void) {
        if isHeld { return held.append(.tap(point, viewTime: viewTime, now: now, tapper: tapper, awarding: awarding, done: done)) }
        advance(to: now)
        let (hit, time) = resolve(point, viewTime: viewTime)
        let outcome = context.run { scene.tap(hit, at: point, time: time, by: tapper) }
        guard case .claim(let claim) = outcome else { return done(TapResult(outcome: outcome, events: takeEvents())) }
        let release = hold()
        awarding.commit(Award(claim: claim, player: tapper.player, name: tapper.name, serverTime: clock.now)) { [self] total in
            switch total {
            case .success(let total):
                context.run { scene.confirm(claim, total: total, for: tapper) }
                done(TapResult(outcome: outcome, events: context.run { scene.takeEvents() }, awarded: true))
            case .failure(let error):
                done(TapResult(outcome: outcome, events: context.run { scene.takeEvents() }, failure: "\(error)"))
            }
            release()
        }
    }

    /// `tap` through an awarding service that answers at once (replay, tests): the result.
    public func tap(at point: CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval, by tapper: Tapper,
                    awarding: any ImmediateAwarding) -> TapResult {
        var result: TapResult?
        tap(at: point, viewTime: viewTime, now: now, by: tapper, awarding: awarding as any Awarding) { result = $0 }
        guard let result else { preconditionFailure("a tap waited on an immediate awarding service: the stage was already held") }
        return result
    }

    /// A drag step, resolved like a tap (nothing to commit). While a claim is being committed it
    /// waits, and its events come with the room's next ones (`takeEvents`).
    public func drag(_ phase: DragPhase, at point: CGPoint, viewTime: CFTimeInterval, now: CFTimeInterval,
                     by client: String) -> [SceneEvent] {
        if isHeld {
            held.append(.drag(phase, point, viewTime: viewTime, now: now, client: client))
            return []
        }
        advance(to: now)
        let (hit, time) = resolve(point, viewTime: viewTime)
        context.run { scene.drag(phase, hit: hit, at: point, time: time, by: client) }
        return takeEvents()
    }

    /// Runs what waited while the scene was held, in order, until one of the taps holds it again.
    private func releaseHeld() {
        while !isHeld, !held.isEmpty {
            switch held.removeFirst() {
            case .advance(let time): advance(to: time)
            case .tap(let point, let viewTime, let now, let tapper, let awarding, let done):
                tap(at: point, viewTime: viewTime, now: now, by: tapper, awarding: awarding, done: done)
            case .drag(let phase, let point, let viewTime, let now, let client):
                advance(to: now)
                let (hit, time) = resolve(point, viewTime: viewTime)
                context.run { scene.drag(phase, hit: hit, at: point, time: time, by: client) }
            }
        }
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

import Foundation
import LayercastEngine

/// A scene that runs authoritatively in a room: it builds its layer tree in Core Animation
/// style, reacts to resolved input and announces events. Scenes are driven from one thread.
public protocol Scene: AnyObject {
    /// What the catalogue and `welcome` say about this scene.
    static var info: SceneInfo { get }

    /// The admin commands the scene takes (`POST /api/rooms/{room}/{command}`), each answered by
    /// its controller; none by default. No two scenes of the catalogue share one.
    static var commands: [String] { get }

    /// The rules a tap may be refused under (`TapOutcome.refused`), each counted in `/metrics`.
    static var tapRules: [String] { get }

    /// The options `layercast serve` takes for this scene (`--NAME`, `LAYERCAST_NAME`); none by default.
    static var options: [SceneOption] { get }

    /// The auditor of the paying rounds the scene records (`SceneServices.rounds`), which
    /// `layercast replay` and the round documents use; nil (the default) for a scene that records none.
    static var roundAuditor: (any RoundAuditor.Type)? { get }

    /// Why these options cannot run together (e.g. a minimum above a maximum), nil when they can;
    /// asked at start, after each option passed its own rule. Nil by default.
    static func validationError(_ options: SceneOptionValues) -> String?

    /// The server-side controller of a new instance in a room, with the options the service was
    /// started with: by default a `PlainSceneController` around `init(seed:)`. A scene that takes
    /// options, commands or claims returns its own.
    static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController

    /// Builds the layer tree and starts its animations and timers. Called inside the room's
    /// `SceneContext` at media time 0; `seed` makes every random choice reproducible.
    init(seed: UInt64)

    /// The root of the scene's layer tree; its frame is the scene rect `(0,0)–info.size`.
    var layer: CALayer { get }

    /// A tap resolved on the server: `hit` is the model layer under `point` in the presentation
    /// tree at `time` (nil for none). Called inside the room's context. A tap that would win
    /// something changes nothing yet: it returns `.claim`, which the room commits before it
    /// calls `confirm` (`SceneStage.tap`).
    @discardableResult
    func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome

    /// Applies a claim this scene made that has been committed: shows it and announces it.
    /// `total` is the tapper's total after it. Called inside the room's context.
    func confirm(_ claim: Claim, total: Int, for tapper: Tapper)

    /// A drag step resolved like a tap. Called inside the room's context.
    func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String)

    /// Events announced since the last call, oldest first; the room drains them after every
    /// tick and every input.
    func takeEvents() -> [SceneEvent]
}

extension Scene {
    public static var commands: [String] { [] }
    public static var tapRules: [String] { [] }
    public static var options: [SceneOption] { [] }
    public static var roundAuditor: (any RoundAuditor.Type)? { nil }
    public static func validationError(_ options: SceneOptionValues) -> String? { nil }

    public static func controller(seed: UInt64, options: SceneOptionValues, services: SceneServices) -> any SceneController {
        PlainSceneController(stage: SceneStage { Self(seed: seed) })
    }

    public func confirm(_ claim: Claim, total: Int, for tapper: Tapper) {}

    public func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String) {}
}

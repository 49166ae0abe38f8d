import Foundation
import LayercastEngine

/// A scene that runs authoritatively in a room: it builds its layer tree in Core Animation
/// style, reacts to resolved input and announces events. Scenes are driven from one thread.
public protocol Scene: AnyObject {
    /// What the catalogue and `welcome` say about this scene.
    static var info: SceneInfo { get }

    /// Builds the layer tree and starts its animations and timers. Called inside the room's
    /// `SceneContext` at media time 0; `seed` makes every random choice reproducible.
    init(seed: UInt64)

    /// The root of the scene's layer tree; its frame is the scene rect `(0,0)–info.size`.
    var layer: CALayer { get }

    /// A tap resolved on the server: `hit` is the model layer under `point` in the presentation
    /// tree at `time` (nil for none). Called inside the room's context.
    func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String)

    /// A drag step resolved like a tap. Called inside the room's context.
    func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String)

    /// Events announced since the last call, oldest first; the room drains them after every
    /// tick and every input.
    func takeEvents() -> [SceneEvent]
}

extension Scene {
    public func drag(_ phase: DragPhase, hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by client: String) {}
}

/// The phase of a drag, as the client reports it.
public enum DragPhase: String, Sendable, CaseIterable {
    case began, moved, ended, cancelled
}

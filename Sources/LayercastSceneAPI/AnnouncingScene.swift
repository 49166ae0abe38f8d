
/// A scene whose events go through a `SceneEventLog`: it announces with `eventLog.announce(…)`
/// and gets `takeEvents()` from here, so that a scene which draws and takes taps writes its
/// layer tree, `init(seed:)`, `info` and `tap` and nothing else.
public protocol AnnouncingScene: Scene {
    /// Where the scene's announcements wait for the room.
    var eventLog: SceneEventLog { get }
}

extension AnnouncingScene {
    /// The events announced through `eventLog` since the last call, oldest first.
    public func takeEvents() -> [SceneEvent] { eventLog.take() }
}

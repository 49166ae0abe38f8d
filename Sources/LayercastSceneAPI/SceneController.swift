import LayercastJSON

/// A scene's server-side behaviour in a room, beside its frames: the admin commands it takes,
/// what a joining client is told, what it persists as it runs, and its own tap rules. The room
/// (LayercastHub) calls it on its one thread and knows no scene by name.
public protocol SceneController: AnyObject {
    /// The scene and its clock.
    var stage: SceneStage { get }
    /// The awarding service its claims are committed through.
    var awarding: any Awarding { get }
    /// Whether the room must stay open though nobody is in it (a rain is running).
    var isBusy: Bool { get }
    /// Answers `command`, one of the scene's `commands`, with the request body `body`; a refusal
    /// changes nothing.
    func perform(_ command: String, body: [UInt8], in room: any ControlledRoom) -> Result<CommandAnswer, APIError>
    /// `perform`, answering through `answer` on the room's thread, at once or later: a command that
    /// waits on the ledger (`RoundRecords`) implements this one. By default, `perform`'s answer.
    func perform(_ command: String, body: [UInt8], in room: any ControlledRoom, answer: @escaping (Result<CommandAnswer, APIError>) -> Void)
    /// Events for `client`, which has just joined (after its `welcome`).
    func joined(client: String, in room: any ControlledRoom) -> [SceneEvent]
    /// The scene's own refusal of a tap by `player` before it is resolved, or nil.
    func admitTap(by player: String, in room: any ControlledRoom) -> ProtocolError?
    /// After each tick: records what the scene persists, runs its schedule; events for the room.
    func ticked(in room: any ControlledRoom) -> [SceneEvent]
    /// The server is stopping: records what the stop interrupts.
    func stopping()
    /// In a cluster, this node has just become the origin of `room`, which another node ran
    /// until it died: take up what the scene persisted there (the rain it was running), or
    /// record it interrupted.
    func tookOver(in room: any ControlledRoom) -> Takeover
    /// `tookOver`, answering through `done` on the room's thread, at once or later: a controller
    /// that waits on the ledger (`RoundRecords.running`) implements this one. By default,
    /// `tookOver`'s answer.
    func tookOver(in room: any ControlledRoom, done: @escaping (Takeover) -> Void)
}

extension SceneController {
    public var isBusy: Bool { false }

    public func perform(_ command: String, body: [UInt8], in room: any ControlledRoom) -> Result<CommandAnswer, APIError> {
        .failure(APIError(404, .notFound, "this scene takes no command \(FieldReader.quoted(command))"))
    }

    public func perform(_ command: String, body: [UInt8], in room: any ControlledRoom,
                        answer: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        answer(perform(command, body: body, in: room))
    }

    public func joined(client: String, in room: any ControlledRoom) -> [SceneEvent] { [] }
    public func admitTap(by player: String, in room: any ControlledRoom) -> ProtocolError? { nil }
    public func ticked(in room: any ControlledRoom) -> [SceneEvent] { [] }
    public func stopping() {}
    public func tookOver(in room: any ControlledRoom) -> Takeover { Takeover() }
    public func tookOver(in room: any ControlledRoom, done: @escaping (Takeover) -> Void) { done(tookOver(in: room)) }
}

/// What a controller took up when its node became the origin of a room another node ran.
public struct Takeover: Equatable, Sendable {
    /// Events for the room.
    public var events: [SceneEvent]
    /// What became of each round the dead origin was running: `resumed`, or why it was recorded
    /// interrupted (`/metrics`: `layercast_takeover_rounds_total{outcome}`).
    public var outcomes: [TakeoverOutcome]
    /// Why nothing was taken up yet: the ledger failed, or did not answer by its deadline. The hub
    /// runs the room meanwhile and asks again (docs/cluster.md, "A rain survives its origin").
    public var failure: String?

    /// A takeover with these events for the room and these round outcomes; none, and no failure, by default.
    public init(events: [SceneEvent] = [], outcomes: [TakeoverOutcome] = [], failure: String? = nil) {
        self.events = events
        self.outcomes = outcomes
        self.failure = failure
    }
}

/// What became of a round (a rain) when its room was taken over.
public enum TakeoverOutcome: String, Sendable, CaseIterable {
    /// It runs on here, rebuilt from its recorded awards.
    case resumed
    /// Its record does not read back into settings.
    case unreadable
    /// It ran on a stage of another size than the scene has on this node.
    case size = "screen"
    /// Its replay does not give the recorded awards: another build of the scene ran it.
    case replay
    /// The room's clock began again (nobody relayed it), before the round's start.
    case clock
    /// The scene here was not idle (it runs a round of its own).
    case scene
    /// A newer round of the same room was running too.
    case superseded
}

/// What a controller may know of its room.
public protocol ControlledRoom: AnyObject {
    /// The room's name.
    var name: String { get }
    /// Now, on the monotonic clock the room's schedule runs on.
    var now: Double { get }
    /// Whether any client is in the room.
    var hasClients: Bool { get }
    /// How many distinct players are in the room.
    var playerCount: Int { get }
    /// The room's media time at the monotonic instant `now`.
    func mediaTime(at now: Double) -> Double
}

/// A command's answer: the HTTP status and the JSON document.
public struct CommandAnswer {
    /// The HTTP status; 200 by default.
    public var status: UInt32
    /// The JSON body of the response.
    public var document: JSONValue

    /// An answer of `document` with `status`.
    public init(status: UInt32 = 200, _ document: JSONValue) {
        self.status = status
        self.document = document
    }
}

/// The controller of a scene with no server-side behaviour of its own: taps are answered in the scene.
public final class PlainSceneController: SceneController {
    public let stage: SceneStage
    public let awarding: any Awarding

    /// A controller of the scene on `stage`, committing claims through `awarding` (none by default).
    public init(stage: SceneStage, awarding: any Awarding = NoAwards()) {
        self.stage = stage
        self.awarding = awarding
    }
}

/// An awarding service for scenes that never claim: any commit is refused.
public final class NoAwards: ImmediateAwarding {
    /// The service that refuses every commit.
    public init() {}

    public func commit(_ award: Award) throws -> Int { throw NoAwardsError() }

    struct NoAwardsError: Error, CustomStringConvertible {
        var description: String { "this room awards nothing" }
    }
}

import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// One running scene and its clients: ticked, built and encoded once per frame for all. Its
/// scene-specific behaviour is its `controller`'s. In a cluster, a room whose origin is another node
/// runs no scene: it keeps the origin's newest display list from the frames relayed to it. A room
/// of a scene this node lacks has no controller: it is only ever relayed.
final class Room: ControlledRoom {
    /// Nil for a room of a scene this node lacks.
    let controller: (any SceneController)?
    var stage: SceneStage? { controller?.stage }
    /// Its scene's id, and the fields `welcome` tells of the scene (`SceneFields`).
    let sceneID: String
    let sceneFields: JSONObject
    let name: String
    /// Monotonic time of media time 0.
    private(set) var startedAt: Double
    var clients: [Client] = []
    var emptySince: Double?
    /// Where its frames come from: its scene here, or another node.
    private(set) var source: RoomSource = .scene
    /// On an origin: frames are published while `now` is before this (other nodes relay them).
    var publishUntil = -Double.infinity
    /// On an origin: the next published frame goes in full (a relaying node asked for one).
    var publishFull = true
    /// On an origin: when a frame was last published, for the keepalives of a still room.
    var publishedAt = -Double.infinity
    /// On an origin: clients and distinct players on other nodes, as they last reported.
    var remoteClients = 0
    var remotePlayers = 0
    /// On an origin: the node of each client on another node whose input it resolved.
    var remoteClientNodes: [String: String] = [:]
    /// Set when this node takes the room over: the next frame goes in full to every client.
    private var restarting = false
    /// While this node takes the room over and its controller has not yet taken up what the
    /// scene persisted (its claims are with the ledger, or are asked again): `Hub.place`.
    var takeover: PendingTakeover?
    /// Whether the room waits for its takeover's first answer: no frames, input or commands yet.
    var awaitsTakeover: Bool { takeover?.waiting == true }

    /// The transport, whose headroom is the encodings'; and the hub's clock, the room's `now`.
    private unowned let transport: any HubTransport
    private let clock: any MediaClock
    /// Builds the room's frames, holding at most `--max-particles` particle records a frame.
    private let builder: DisplayListBuilder
    private let encoder = FrameEncoder()
    /// The newest frame: its number, media time and display list.
    private(set) var frameNumber = -1
    private(set) var frameTime = 0.0
    private var list = DisplayList()
    /// The first frame whose display list is the newest frame's: a client holding any frame from
    /// here on holds the newest list.
    private(set) var stillSince = -1
    /// The first frame the newest delta applies to (`b`): it applies to every frame from here
    /// through `frameNumber - 1`, which all hold one list.
    private(set) var deltaBase = -1
    /// The lists of the latest frames that changed something, oldest first, for the catch-up
    /// deltas of clients that acknowledge (`catchUpFrame`): each holds from its number until the next's.
    private var history: [(number: Int, list: DisplayList)] = []
    /// How many changed lists `history` keeps: about two seconds of a room changing every tick at
    /// 30 frames a second, what a link of a few kilobytes a second may hold in flight.
    static let historyLimit = 64
    /// This tick's catch-up deltas, by the number of the history entry they start from.
    private var catchUps: [Int: EncodedMessage] = [:]
    /// How many of its clients acknowledge frames: `history` is kept only while some do.
    private(set) var acknowledgingClients = 0
    /// The newest frame's delta and full encodings; each is made at most once, when first needed.
    private var delta: FrameDelta?
    private var deltaMessage: EncodedMessage?
    private var fullMessage: EncodedMessage?

    /// A room around `controller`'s scene, created at media time 0; the root layer's bounds give the
    /// scene size that `welcome` announces. Its frames hold at most `maxParticles` particle records.
    init(name: String, controller: any SceneController, now: Double, transport: any HubTransport, clock: any MediaClock,
         maxParticles: Int, placing: Bool = false) {
        self.name = name
        builder = DisplayListBuilder(maxParticles: maxParticles)
        if placing { source = .placing }
        self.controller = controller
        self.transport = transport
        self.clock = clock
        startedAt = now
        var info = type(of: controller.stage.scene).info
        info.size = controller.stage.scene.layer.bounds.size
        sceneID = info.id
        sceneFields = SceneFields.of(info)
    }

    /// A room of scene `sceneID`, which this node lacks, to be relayed from the node that runs it;
    /// `sceneFields` are what that node published of the scene.
    init(name: String, sceneID: String, sceneFields: JSONObject, now: Double, transport: any HubTransport, clock: any MediaClock) {
        self.name = name
        builder = DisplayListBuilder(maxParticles: 0)  // a relayed room builds no frame
        source = .placing
        controller = nil
        self.sceneID = sceneID
        self.sceneFields = sceneFields
        self.transport = transport
        self.clock = clock
        startedAt = now
    }

    /// Now, on the hub's monotonic clock (`ControlledRoom`).
    var now: Double { clock.now }
    var hasClients: Bool { !clients.isEmpty || remoteClients > 0 }
    var playerCount: Int { Set(clients.compactMap { $0.player?.id }).count + remotePlayers }
    var key: String { "\(sceneID)/\(name)" }

    /// Media time of the monotonic instant `now`; a relayed room's is its newest frame's.
    func mediaTime(at now: Double) -> Double {
        guard source == .scene, let stage else { return frameTime }
        return max(stage.now, now - startedAt)
    }

    /// The cluster placed the room: relayed from `origin`, or (nil) run here. A relayed room
    /// that becomes the origin's takes its scene up at the newest relayed frame's number and
    /// media time, and sends its next frame in full. A room without a controller is never run here.
    func place(origin: String?, at now: Double) {
        guard let origin else {
            guard controller != nil else { return }
            if source != .scene, frameNumber >= 0 {
                startedAt = now - frameTime
                restarting = true
            }
            source = .scene
            publishFull = true
            return
        }
        source = .origin(origin)
    }

    /// A room being placed goes on from frame `number` at media time `time`, another node's
    /// newest relayed frame: once placed here, it takes its scene up there as a relay that takes a
    /// room over does (`place`). Nothing changes in a room that has frames of its own.
    func goOn(after number: Int, time: Double) {
        guard source == .placing, frameNumber < 0 else { return }
        frameNumber = number
        frameTime = time
    }

    /// Advances the scene to `now` (timers, animation events) and makes the next frame; encodings
    /// are made lazily. Nothing happens in a room without a controller.
    func tick(at now: Double) {
        guard let stage else { return }
        stage.advance(to: mediaTime(at: now))
        let next = stage.run { builder.build(stage.scene.layer, at: stage.now) }
        delta = restarting ? nil : FrameDelta.from(list, to: next)
        restarting = false
        list = next
        deltaBase = stillSince
        frameNumber += 1
        if delta?.isEmpty != true {
            stillSince = frameNumber
            remember(list, as: frameNumber)
        }
        frameTime = stage.now
        deltaMessage = nil
        fullMessage = nil
        if !catchUps.isEmpty { catchUps.removeAll(keepingCapacity: true) }
    }

    /// `client`, of this room, now acknowledges frames.
    func startsAcknowledging(_ client: Client) {
        guard !client.acknowledges else { return }
        client.acknowledges = true
        acknowledgingClients += 1
    }

    /// Takes `client` out of the room.
    func remove(_ client: Client) {
        clients.removeAll { $0 === client }
        if client.acknowledges { acknowledgingClients -= 1 }
    }

    /// Keeps `list` as frame `number`'s in `history` while a client acknowledges, forgetting the
    /// oldest past `historyLimit`.
    private func remember(_ list: DisplayList, as number: Int) {
        guard acknowledgingClients > 0 else {
            if !history.isEmpty { history.removeAll() }
            return
        }
        if history.count >= Self.historyLimit { history.removeFirst(history.count - Self.historyLimit + 1) }
        history.append((number, list))
    }

    /// The newest frame for a client that holds frame `number`'s list: a delta from that list
    /// (`b` its first frame) when `history` still has it and the delta is smaller than the full
    /// frame, else the full frame. Each is encoded once a tick for every client it goes to.
    func catchUpFrame(from number: Int, _ metrics: inout Metrics) -> EncodedMessage {
        let full = fullFrame(&metrics)
        guard number >= 0, number < frameNumber, let index = history.lastIndex(where: { $0.number <= number }) else { return full }
        let base = history[index].number
        if let cached = catchUps[base] { return cached }
        let change = FrameDelta.from(history[index].list, to: list)
        let delta = EncodedMessage(encoder.delta(change, number: frameNumber, time: frameTime, base: base), headroom: transport.headroom)
        metrics.deltaFramesEncoded += 1
        let message = delta.count < full.count ? delta : full
        catchUps[base] = message
        return message
    }

    /// Whether the newest frame changed nothing since the one before: its delta is a keepalive,
    /// which a client that holds the list needs only now and then (`Hub.keepaliveInterval`).
    var isStill: Bool { delta?.isEmpty == true }

    /// Whether a client holding frame `number` can take the newest frame as the delta.
    func deltaApplies(to number: Int) -> Bool {
        delta != nil && number >= 0 && number >= deltaBase && number < frameNumber
    }

    /// Takes a frame relayed from the origin (its JSON text): a full frame replaces the display
    /// list, a delta applies when it follows the newest frame (else `.gap`, nothing changes).
    /// The text itself is what this node's clients are sent.
    func relay(_ text: UnsafeRawBufferPointer, headroom: Int) -> RelayOutcome {
        guard case .origin = source, let value = try? JSONValue.parse(bytes: text), case .object(let frame) = value,
              case .number(let n)? = frame["n"], case .bool(let full)? = frame["full"], case .number(let t)? = frame["t"],
              n >= 0, n < 9e15 else { return .ignored }
        let number = Int(n)
        if full {
            guard let next = try? DisplayList(fullFrame: value) else { return .ignored }
            if number <= frameNumber {  // a new origin numbered afresh
                for client in clients {
                    client.lastFrameSent = -1
                    client.acks.reset()
                }
                history.removeAll()
            }
            list = next
            delta = nil
            deltaMessage = nil
            fullMessage = EncodedMessage(copying: text, headroom: headroom)
            stillSince = number
            remember(next, as: number)
        } else {
            guard frameNumber >= 0, let range = FrameMessage.deltaRange(value), range.contains(frameNumber),
                  let change = try? FrameDelta(deltaFrame: value) else { return .gap }
            list = change.applied(to: list)
            delta = change
            deltaBase = range.lowerBound
            if !change.isEmpty {
                stillSince = number
                remember(list, as: number)
            }
            deltaMessage = EncodedMessage(copying: text, headroom: headroom)
            fullMessage = nil
        }
        frameNumber = number
        frameTime = t
        if !catchUps.isEmpty { catchUps.removeAll(keepingCapacity: true) }
        return .applied
    }

    /// The newest frame as a delta against the frames from `deltaBase` on; nil for frame 0.
    func deltaFrame(_ metrics: inout Metrics) -> EncodedMessage? {
        guard let delta, frameNumber > 0 else { return nil }
        if let deltaMessage { return deltaMessage }
        let message = EncodedMessage(encoder.delta(delta, number: frameNumber, time: frameTime, base: deltaBase),
                                     headroom: transport.headroom)
        metrics.deltaFramesEncoded += 1
        deltaMessage = message
        return message
    }

    /// The newest frame in full.
    func fullFrame(_ metrics: inout Metrics) -> EncodedMessage {
        if let fullMessage { return fullMessage }
        let message = EncodedMessage(encoder.full(list, number: frameNumber, time: frameTime), headroom: transport.headroom)
        metrics.fullFramesEncoded += 1
        fullMessage = message
        return message
    }

    /// A tap through the scene's one tap path (`SceneStage.tap`), committed through `awarding`;
    /// `done` gets its result at once or when the commit settles.
    func tap(x: Double, y: Double, viewTime: Double, by tapper: Tapper, at now: Double, in controller: any SceneController,
             awarding: any Awarding, done: @escaping (TapResult) -> Void) {
        controller.stage.tap(at: CGPoint(x: x, y: y), viewTime: viewTime, now: mediaTime(at: now), by: tapper, awarding: awarding, done: done)
    }

    /// A drag step, resolved like a tap.
    func drag(_ phase: DragPhase, x: Double, y: Double, viewTime: Double, by client: String, at now: Double) -> [SceneEvent] {
        guard let stage else { return [] }
        return stage.drag(phase, at: CGPoint(x: x, y: y), viewTime: viewTime, now: mediaTime(at: now), by: client)
    }

    /// Events the scene raised on its own (timers) since the last call.
    func takeEvents() -> [SceneEvent] { stage?.takeEvents() ?? [] }
}

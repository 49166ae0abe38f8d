import Foundation
import LayercastEngine
import LayercastJSON
import LayercastSceneAPI
import LayercastWire
import Logging

/// The red-packet rain in its room (docs/protocol.md, "The red-packet rain" and "Provably fair
/// rains"): rains recorded before they start, with only their commitment public; the per-player
/// tap rate; the record kept in step with the scene's phases; and the schedule.
public final class RainController: SceneController {
    /// The scene and its clock; replaced by a rebuilt one when this node takes a rain over.
    public private(set) var stage: SceneStage
    public let awarding: any Awarding
    private var scene: RainScene
    private let options: RainOptions
    private let rounds: any RoundRecords
    private let logger: Logger
    /// The id of the rain in progress, until its end has been recorded.
    private var running: Int64?
    /// The monotonic time the room was last seen running a rain (or was first seen).
    private var idleSince: Double?
    /// Whether the scene was idle at the last tick (the tick that finds it idle again tells the
    /// room when the next rain is due).
    private var wasIdle = true
    /// Taps allowed per player during the running rain (its `tapRate`), reset by each rain.
    private var taps: [String: RateLimiter] = [:]
    /// Whether an operator stopped the running rain (it is recorded interrupted), reset by each rain.
    private var stopped = false
    /// Whether the ledger is recording a rain's start, or the running rain's end.
    private var beginning = false
    private var ending = false
    /// Whether the rains the ledger has running in the room wait to be claimed: from a takeover
    /// until its claims are answered. No rain starts meanwhile (it would run beside them).
    private var unclaimed = false
    /// Counts takeovers and stops: claims answered for an earlier one take nothing up.
    private var takeovers = 0

    init(scene: RainScene, stage: SceneStage, options: RainOptions, services: SceneServices) {
        self.scene = scene
        self.stage = stage
        self.options = options
        awarding = services.awarding
        rounds = services.rounds
        logger = services.logger
    }

    public var isBusy: Bool { running != nil || beginning }

    /// The rain a request or the schedule leaves to the server's defaults.
    public static func defaults(_ options: RainOptions) -> RainRequest.Order {
        RainRequest.Order(settings: options.defaults, maxAwardsPerPlayer: options.maxAwardsPerPlayer,
                          maxCoinsPerPlayer: options.maxCoinsPerPlayer)
    }

    /// `POST /api/rooms/{room}/rain`: starts a rain with the body's settings (201).
    /// `POST /api/rooms/{room}/stop-rain`: stops the rain counting down or falling (200).
    /// Each is answered once the ledger has recorded it.
    public func perform(_ command: String, body: [UInt8], in room: any ControlledRoom,
                        answer: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        if command == "stop-rain" { return stopRain(in: room) { answer($0.map { CommandAnswer(status: 200, $0) }) } }
        switch RainRequest.order(from: body, defaults: Self.defaults(options), seed: Self.randomSeed()) {
        case .failure(let error): answer(.failure(error))
        case .success(let order): startRain(order, in: room) { answer($0.map { CommandAnswer(status: 201, $0) }) }
        }
    }

    /// Stops the running rain now (RainScene.stopRain) and records it interrupted; the claims it
    /// made stand. Refused (409 `no_rain`) unless a rain is counting down or falling.
    func stopRain(in room: any ControlledRoom, answer: @escaping (Result<JSONValue, APIError>) -> Void) {
        guard let id = running, scene.phase == .countdown || scene.phase == .raining else {
            return answer(.failure(APIError(409, .noRain, "room \(room.name) has no rain counting down or falling")))
        }
        stage.advance(to: room.mediaTime(at: room.now))
        stage.run { _ = scene.stopRain() }
        stopped = true
        logger.warning("rain stopped by the operator", metadata: ["room": "\(room.name)", "rain": "\(id)"])
        recordEnd(of: id, in: room) { [self] in answer(stoppedAnswer(id, in: room)) }
    }

    /// What `stop-rain` answers about rain `id` once its end was recorded (or failed to be).
    private func stoppedAnswer(_ id: Int64, in room: any ControlledRoom) -> Result<JSONValue, APIError> {
        guard let rain = scene.rain, rain.id == id else { return .failure(APIError(500, .internal, "the scene lost rain \(id)")) }
        return .success([
            "rain": .number(Double(id)), "room": .string(room.name),
            "status": .string(running == nil ? "interrupted" : "running"),
            "stoppedAt": .number(rain.stoppedAt ?? stage.now),  // as in the scene's results event
            "claimed": .number(Double(rain.claimed.count)), "awarded": .number(Double(rain.awarded)),
        ])
    }

    /// Records the end of rain `id` (interrupted when an operator stopped it), then calls `done`;
    /// on failure it stays `running` here and a later tick tries again. One end at a time.
    private func recordEnd(of id: Int64, in room: any ControlledRoom, done: @escaping () -> Void = {}) {
        guard !ending else { return done() }
        ending = true
        let interrupted = stopped
        rounds.end(id, interrupted: interrupted) { [self] result in
            ending = false
            switch result {
            case .success:
                if running == id { running = nil }
                logger.info(interrupted ? "rain recorded interrupted" : "rain finished", metadata: ["room": "\(room.name)", "rain": "\(id)"])
            case .failure(let error):
                logger.error("ledger could not end a rain; retrying next tick", metadata: ["rain": "\(id)", "error": "\(error)"])
            }
            done()
        }
    }

    /// Starts a rain now, with a fresh secret salt and its per-player limits settled over the
    /// players in the room: recorded first, then the scene counts down. Refused while one runs.
    /// The scene is held while the ledger records the rain, so it starts at the media time recorded.
    func startRain(_ order: RainRequest.Order, in room: any ControlledRoom, answer: @escaping (Result<JSONValue, APIError>) -> Void) {
        if let running = running ?? scene.rain?.id {
            return answer(.failure(APIError(409, .rainRunning, "room \(room.name) is running rain \(running); start the next one when it is idle")))
        }
        guard !beginning, !stage.isHeld else {
            return answer(.failure(APIError(409, .rainRunning, "room \(room.name) is recording a rain's start; start the next one when it is idle")))
        }
        guard !unclaimed else {
            return answer(.failure(APIError(503, .ledgerUnavailable,
                                            "room \(room.name) has not yet claimed the rains its last origin left running (the ledger did not answer); try again shortly")))
        }
        stage.advance(to: room.mediaTime(at: room.now))
        let players = room.playerCount
        var settings = order.settings(players: players)
        settings.salt = RainCommitment.makeSalt()
        let commitment = RainCommitment(settings: settings, size: scene.configuration.size)
        let plan = PrizePlan(settings: settings)
        let start = RainStart(room: room.name, settings: settings, commitment: commitment, plan: plan,
                              size: scene.configuration.size, players: players, mediaStart: stage.now).round
        beginning = true
        let release = stage.hold()
        rounds.begin(start) { [self] result in
            beginning = false
            switch result {
            case .failure(let error):
                release()
                logger.error("ledger refused a rain", metadata: ["room": "\(room.name)", "error": "\(error)"])
                answer(.failure(APIError(503, .ledgerUnavailable, "the ledger could not record the rain: \(error)")))
            case .success(let id):
                let document = started(id, settings: settings, plan: plan, commitment: commitment, players: players, in: room)
                release()
                answer(document)
            }
        }
    }

    /// Starts recorded rain `id` in the scene; the answer to its start.
    private func started(_ id: Int64, settings: RainSettings, plan: PrizePlan, commitment: RainCommitment, players: Int,
                         in room: any ControlledRoom) -> Result<JSONValue, APIError> {
        stage.run { _ = scene.startRain(id: id, settings: settings, plan: plan) }
        running = id
        taps = [:]
        stopped = false
        logger.info("rain started", metadata: ["room": "\(room.name)", "rain": "\(id)", "commitment": "\(commitment.digest)"])
        guard let rain = scene.rain else { return .failure(APIError(500, .internal, "the scene did not start rain \(id)")) }
        return .success([
            "rain": .number(Double(id)), "room": .string(room.name), "commitment": .string(commitment.digest),
            "duration": .number(settings.duration), "packets": .number(Double(settings.packets)),
            "winners": .number(Double(settings.winners)), "pool": .number(Double(settings.pool)),
            "minCoins": .number(Double(settings.minCoins)), "maxCoins": .number(Double(settings.maxCoins)),
            "players": .number(Double(players)), "limits": settings.limitsJSON,
            "countdownAt": .number(Quantize.time(rain.countdownAt)), "startsAt": .number(Quantize.time(rain.startsAt)),
            "endsAt": .number(Quantize.time(rain.endsAt)),
        ])
    }

    /// The rain's phase, or when the next one falls, for a client that has just joined.
    public func joined(client: String, in room: any ControlledRoom) -> [SceneEvent] {
        if let phase = scene.phaseEvent(for: client) { return [phase] }
        return nextRainEvent(in: room, for: client).map { [$0] } ?? []
    }

    /// The running rain's tap rate, per player over all of its connections.
    public func admitTap(by player: String, in room: any ControlledRoom) -> ProtocolError? {
        guard let rate = scene.rain?.settings.tapRate,
              !taps[player, default: RateLimiter(rate: rate, burst: rate)].allow(at: room.now) else { return nil }
        return ProtocolError(.rateLimited, "more than \(RateText.decimal(rate)) taps per second during this rain")
    }

    /// Records the end of a rain once the scene shows its results (announced once recorded, or
    /// when the ledger failed to), and starts a scheduled rain
    /// when the room has clients and has been idle long enough.
    public func ticked(in room: any ControlledRoom) -> [SceneEvent] {
        let now = room.now
        if idleSince == nil { idleSince = now }
        // The scene is held while the end is recorded: its results are announced once it is.
        if let id = running, scene.phase == .results || scene.phase == .idle, !ending, !stage.isHeld {
            let release = stage.hold()
            recordEnd(of: id, in: room) { release() }
        }
        guard scene.phase == .idle, running == nil else {
            idleSince = now
            wasIdle = false
            return []
        }
        var events: [SceneEvent] = []
        if !wasIdle {
            wasIdle = true
            if let next = nextRainEvent(in: room, for: nil) { events.append(next) }
        }
        let every = options.everySeconds
        guard every > 0, room.hasClients, now - (idleSince ?? now) >= every else { return events }
        var order = Self.defaults(options)
        order.settings.seed = Self.randomSeed()
        idleSince = now  // one attempt per period, whatever the ledger answers
        startRain(order, in: room) { [logger] result in
            if case .failure(let error) = result {
                logger.error("scheduled rain not started", metadata: ["room": "\(room.name)", "error": "\(error.message)"])
            }
        }
        return events
    }

    /// `{"phase":"idle","nextAt":t}` of an idle room on a schedule: the room's media time when the
    /// schedule starts the next rain (now, if it is due and waits for a client); for `client`
    /// alone when given. Nil when no rain is scheduled or one is running.
    func nextRainEvent(in room: any ControlledRoom, for client: String?) -> SceneEvent? {
        let every = options.everySeconds
        guard every > 0, scene.phase == .idle, running == nil else { return nil }
        let now = room.now
        let due = max(now, (idleSince ?? now) + every)
        return SceneEvent(name: "rain", data: ["phase": "idle", "nextAt": .number(Quantize.time(room.mediaTime(at: due)))],
                          client: client, audience: client == nil ? .room : .client)
    }

    /// Records a rain still running as interrupted; a takeover whose claims are not answered yet takes nothing up.
    public func stopping() {
        takeovers += 1
        guard let id = running else { return }
        rounds.end(id, interrupted: true) { [self] result in
            if case .failure(let error) = result {
                logger.error("ledger could not mark a rain interrupted", metadata: ["rain": "\(id)", "error": "\(error)"])
            } else if running == id {
                running = nil
            }
        }
    }

    /// Goes on with the newest rain the ledger still has running in the room, rebuilt by
    /// replaying its awards from its seed and start (as `layercast replay` does); rains it cannot
    /// rebuild, and older ones, are recorded interrupted. The room's media time goes on from the
    /// last frame the dead origin sent, so the rebuilt rain is where it was. `done` is called once
    /// the ledger has answered the claims; when it failed, with the failure: nothing is taken up,
    /// and no rain starts here until a later takeover has claimed them.
    public func tookOver(in room: any ControlledRoom, done: @escaping (Takeover) -> Void) {
        takeovers += 1
        let takeover = takeovers
        unclaimed = true
        rounds.running(in: room.name) { [self] result in
            guard takeover == takeovers else {
                return done(Takeover(failure: "the room was given up or taken over again before the ledger answered"))
            }
            switch result {
            case .failure(let error):
                logger.error("could not claim the room's running rains on takeover", metadata: ["room": "\(room.name)", "error": "\(error)"])
                done(Takeover(failure: "\(error)"))
            case .success(let claimed):
                unclaimed = false
                done(takeUp(claimed.map(RecordedRain.init), in: room))
            }
        }
    }

    /// Resumes the newest of the claimed rains `recorded` and records the others interrupted.
    private func takeUp(_ recorded: [RecordedRain], in room: any ControlledRoom) -> Takeover {
        var outcomes: [TakeoverOutcome] = []
        for (index, rain) in recorded.enumerated() {
            let began = room.now
            let outcome = index == recorded.count - 1 ? resume(rain, in: room) : .superseded
            outcomes.append(outcome)
            if outcome == .resumed {
                // bench/takeover.py reads this line: the rebuild's time against the rain's age.
                let age = room.mediaTime(at: room.now) - rain.mediaStart
                logger.notice("rain resumed on takeover", metadata: [
                    "room": "\(room.name)", "rain": "\(rain.id)", "awards": "\(rain.awards.count)",
                    "age_s": "\(Quantize.time(age))", "rebuild_ms": "\(Quantize.time((room.now - began) * 1000))",
                ])
                continue
            }
            logger.warning("rain not resumed on takeover; recorded interrupted", metadata: ["rain": "\(rain.id)", "reason": "\(outcome.rawValue)"])
            rounds.end(rain.id, interrupted: true) { [logger] result in
                if case .failure(let error) = result {
                    logger.error("ledger could not mark a rain interrupted", metadata: ["rain": "\(rain.id)", "error": "\(error)"])
                }
            }
        }
        return Takeover(events: scene.phaseEvent().map { [$0] } ?? [], outcomes: outcomes)
    }

    /// Rebuilds `rain` in the idle scene: `.resumed`, or why it cannot be (then nothing changed).
    private func resume(_ rain: RecordedRain, in room: any ControlledRoom) -> TakeoverOutcome {
        guard let settings = rain.settings, settings.validationError() == nil else { return .unreadable }
        guard rain.size == scene.configuration.size else { return .size }
        guard scene.phase == .idle, running == nil else { return .scene }
        guard room.mediaTime(at: room.now) >= rain.mediaStart else { return .clock }
        // Replayed on a fresh scene, swapped in only when it gives every recorded award (else
        // this build's scene is not the one that ran the rain, and nothing here changes).
        let rebuilt = RainReplay.rebuild(id: rain.id, settings: settings, configuration: scene.configuration,
                                         mediaStart: rain.mediaStart, taps: rain.awards.map(\.tap))
        guard rebuilt.outcomes == rain.awards.map(\.outcome) else { return .replay }
        stage = rebuilt.stage
        scene = rebuilt.scene
        running = rain.id
        taps = [:]
        stopped = false
        return .resumed
    }

    /// A seed safe in JSON (below 2^53), drawn from the system generator.
    static func randomSeed() -> UInt64 { UInt64.random(in: 0...RainSettings.maxSeed) }
}

import Layercast

/// The coverage scene's server side, implementing every requirement of `SceneController`: a round
/// starts on `POST …/coverage-round` once the ledger recorded it, ends after `roundSeconds` of media
/// time (or interrupted when the server stops), and is taken up again on another node; a player
/// who won in the running round has further taps refused before they reach the scene.
public final class CoverageController: SceneController {
    public let stage: SceneStage
    public var awarding: any Awarding { services.awarding }
    /// Busy while a round runs, so the room stays open to end it.
    public var isBusy: Bool { running != nil }
    /// The running round's id and its media start.
    public private(set) var running: (id: Int64, start: Double)?
    private let scene: CoverageScene
    private let services: SceneServices
    private let seed: UInt64
    private let roundSeconds: Double
    private let greeting: String

    /// The controller of `scene` on `stage`, recording rounds through `services`.
    public init(stage: SceneStage, scene: CoverageScene, services: SceneServices, seed: UInt64, roundSeconds: Double, greeting: String) {
        (self.stage, self.scene, self.services, self.seed) = (stage, scene, services, seed)
        (self.roundSeconds, self.greeting) = (roundSeconds, greeting)
    }

    /// `coverage-say`, answered at once: `{"words": "…"}` is announced to the room.
    public func perform(_ command: String, body: [UInt8], in room: any ControlledRoom) -> Result<CommandAnswer, APIError> {
        guard command == "coverage-say" else {
            return .failure(APIError(404, .notFound, "this scene takes no command \(FieldReader.quoted(command))"))
        }
        do {
            let words = try AdminRequestBody.read(body, path: "body", fields: ["words"])?.member("words").present
            guard let words else { return .failure(APIError(400, .badField, "body.words: required")) }
            let text = try words.string()
            stage.run { scene.say(text) }
            return .success(CommandAnswer(["said": .string(text)]))
        } catch let error as APIError {
            return .failure(error)
        } catch let error as ProtocolError {
            return .failure(APIError(400, error.code, error.message))
        } catch {
            return .failure(APIError(500, .internal, "\(error)"))
        }
    }

    /// `coverage-round` waits for the ledger: the round is recorded before the coin can pay in it,
    /// the scene held meanwhile so that the round starts at the media time recorded; refused (409)
    /// while a round runs or the scene is held (a round starting, a claim committing). Other
    /// commands are answered at once.
    public func perform(_ command: String, body: [UInt8], in room: any ControlledRoom,
                        answer: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        guard command == "coverage-round" else { return answer(perform(command, body: body, in: room)) }
        guard running == nil, !stage.isHeld else {
            return answer(.failure(APIError(409, .roundRunning, "a round is running or starting; try again later")))
        }
        let mediaStart = room.mediaTime(at: room.now)
        let start = RoundStart(scene: CoverageScene.info.id, room: room.name, seed: seed, salt: "", commitment: "",
                               settings: #"{"coins":\#(scene.coins)}"#, mediaStart: mediaStart, prizes: [1: scene.coins])
        let release = stage.hold()
        services.rounds.begin(start) { [self] result in
            switch result {
            case .success(let id):
                running = (id, mediaStart)
                scene.round = id
                release()
                answer(.success(CommandAnswer(status: 201, ["round": .number(Double(id))])))
            case .failure(let error):
                release()
                services.logger.warning("coverage round not recorded: \(error)")
                answer(.failure(APIError(503, .ledgerUnavailable, "the round could not be recorded; try again")))
            }
        }
    }

    /// The greeting, for the joining client alone.
    public func joined(client: String, in room: any ControlledRoom) -> [SceneEvent] {
        [SceneEvent(name: "said", data: ["words": .string(greeting)], client: client, audience: .client)]
    }

    /// Refuses a player who already won in the running round.
    public func admitTap(by player: String, in room: any ControlledRoom) -> ProtocolError? {
        guard let round = scene.round, scene.paidRound == round, scene.winner == player else { return nil }
        return ProtocolError(.rateLimited, "you won this round already")
    }

    /// Ends the running round once it has run `roundSeconds` (at the first tick after, when a claim
    /// holds the scene then); its end is announced once recorded.
    public func ticked(in room: any ControlledRoom) -> [SceneEvent] {
        guard let (id, start) = running, !stage.isHeld, room.mediaTime(at: room.now) >= start + roundSeconds else { return [] }
        running = nil
        let release = stage.hold()
        services.rounds.end(id, interrupted: false) { [self] _ in
            stage.run { scene.roundEnded(id) }
            release()
        }
        return []
    }

    /// Records the running round interrupted.
    public func stopping() {
        guard let (id, _) = running else { return }
        running = nil
        services.rounds.end(id, interrupted: true) { _ in }
    }

    /// Takes up this scene's round the dead origin was running (its coin taken if it was awarded),
    /// once the ledger has claimed the room's running rounds; a round of another scene is recorded
    /// interrupted. A ledger that fails leaves nothing taken up, and the room asks again.
    public func tookOver(in room: any ControlledRoom, done: @escaping (Takeover) -> Void) {
        services.rounds.running(in: room.name) { [self] result in
            switch result {
            case .failure(let error): done(Takeover(failure: "\(error)"))
            case .success(let rounds): done(takeUp(rounds))
            }
        }
    }

    private func takeUp(_ rounds: [RecordedRound]) -> Takeover {
        var outcomes: [TakeoverOutcome] = []
        for round in rounds {
            guard round.scene == CoverageScene.info.id, running == nil else {
                services.rounds.end(round.id, interrupted: true) { _ in }
                outcomes.append(round.scene == CoverageScene.info.id ? .superseded : .scene)
                continue
            }
            running = (round.id, round.mediaStart)
            stage.run {
                scene.round = round.id
                if let award = round.awards.first { (scene.paidRound, scene.winner) = (round.id, award.player) }
            }
            outcomes.append(.resumed)
        }
        return Takeover(events: [SceneEvent(name: "said", data: ["words": "taken over"])], outcomes: outcomes)
    }
}

import APICoverage
import Foundation
import Layercast
import LayercastSceneTesting
import Testing

private let coinMiddle = CGPoint(x: 200, y: 200)

/// A controller with the default options, its scene, its rounds and a room at media time 0.
private func started() -> (CoverageController, CoverageScene, LaterRounds, TestRoom) {
    let rounds = LaterRounds()
    let controller = CoverageScene.controller(seed: 9, options: SceneOptionValues(defaultsOf: CoverageScene.self),
                                              services: services(rounds)) as! CoverageController
    return (controller, controller.stage.scene as! CoverageScene, rounds, TestRoom(name: "r1"))
}

@Test func aRoundIsRecordedBeforeTheCoinPaysInItAndPaysOnce() throws {
    let (controller, scene, rounds, room) = started()
    room.now = 2
    var answer: Result<CommandAnswer, APIError>?
    controller.perform("coverage-round", body: [], in: room) { answer = $0 }
    #expect(answer == nil && controller.stage.isHeld)   // the ledger has not answered
    rounds.settle()
    guard case .success(let started)? = answer else { Issue.record("\(String(describing: answer))"); return }
    #expect(started.status == 201 && started.document == ["round": 1])
    let recorded = try #require(rounds.begun[1])
    #expect(recorded.scene == "api-coverage" && recorded.room == "r1" && recorded.seed == 9)
    #expect(recorded.settings == #"{"coins":5}"# && recorded.mediaStart == 2 && recorded.prizes == [1: 5])
    #expect(scene.round == 1 && controller.isBusy && !controller.stage.isHeld)

    let ledger = HarnessLedger()
    let alice = Tapper(client: "c1", player: "alice", name: "Alice")
    let won = controller.stage.tap(at: coinMiddle, viewTime: 2, now: 2.1, by: alice, awarding: ledger)
    #expect(won.outcome == .claim(Claim(round: 1, item: 1, coins: 5, point: coinMiddle, time: 2)))
    #expect(won.awarded && won.events == [SceneEvent(name: "won", data: ["coins": 5, "total": 5], client: "c1")])
    #expect(ledger.totals == ["alice": 5])
    // The coin fades from 1 to 0.3 in half a second; its animation's delegate tells the room.
    let coin = try #require(controller.stage.scene.layer.sublayers?.first { $0.name == "coin" })
    #expect(abs(Double(try #require(coin.presentation(at: 2.35)).opacity) - 0.65) < 1e-6)
    controller.stage.advance(to: 3)
    #expect(controller.stage.takeEvents() == [SceneEvent(name: "faded")] && coin.opacity == 0.3)
    // Alice's next tap is refused before it reaches the scene; anyone else's by the scene's rule.
    #expect(controller.admitTap(by: "alice", in: room) == ProtocolError(.rateLimited, "you won this round already"))
    #expect(controller.admitTap(by: "bob", in: room) == nil)
    let late = controller.stage.tap(at: coinMiddle, viewTime: 2.2, now: 2.2, by: Tapper(client: "c2", player: "bob"), awarding: ledger)
    #expect(late.outcome == .refused(rule: "no-round") && ledger.awards.count == 1)
    // A second round cannot start while this one runs.
    controller.perform("coverage-round", body: [], in: room) { answer = $0 }
    guard case .failure(let busy)? = answer else { Issue.record("a second round started"); return }
    #expect(busy.status == 409 && busy.code == .roundRunning)
}

@Test func theRoundEndsAfterItsSecondsAndIsAnnouncedOnceRecorded() throws {
    let (controller, scene, rounds, room) = started()
    controller.perform("coverage-round", body: [], in: room) { _ in }
    rounds.settle()
    room.now = 9.9
    #expect(controller.ticked(in: room).isEmpty && controller.isBusy)
    room.now = 10
    controller.stage.advance(to: 10)
    #expect(controller.ticked(in: room).isEmpty && !controller.isBusy)
    #expect(controller.stage.takeEvents().isEmpty)   // held until the ledger records the end
    rounds.settle()
    #expect(rounds.ended == [1: false] && scene.round == nil)
    #expect(controller.stage.takeEvents() == [SceneEvent(name: "round-over", data: ["round": 1])])
}

@Test func aRoundCommandWhileOneIsBeingRecordedIsRefused() throws {
    let (controller, scene, rounds, room) = started()
    controller.perform("coverage-round", body: [], in: room) { _ in }
    var second: Result<CommandAnswer, APIError>?
    controller.perform("coverage-round", body: [], in: room) { second = $0 }
    guard case .failure(let busy)? = second else { Issue.record("\(String(describing: second))"); return }
    #expect(busy.status == 409 && busy.code == .roundRunning)
    rounds.settle()
    #expect(rounds.begun.count == 1 && scene.round == 1)
}

@Test func aRoundDueToEndWhileAClaimCommitsEndsAtTheNextTick() throws {
    let (controller, scene, rounds, room) = started()
    controller.perform("coverage-round", body: [], in: room) { _ in }
    rounds.settle()
    let awarding = LaterAwarding()
    controller.stage.tap(at: coinMiddle, viewTime: 9.9, now: 9.9, by: Tapper(client: "c1"), awarding: awarding) { _ in }
    room.now = 10
    #expect(controller.ticked(in: room).isEmpty && controller.isBusy)   // held: the round runs on
    awarding.settle()
    #expect(scene.paidRound == 1)
    room.now = 10.1
    _ = controller.ticked(in: room)
    rounds.settle()
    #expect(rounds.ended == [1: false] && scene.round == nil)
}

@Test func aRoundTheLedgerCannotRecordIsRefusedAndChangesNothing() throws {
    let (controller, scene, rounds, room) = started()
    rounds.fails = true
    var answer: Result<CommandAnswer, APIError>?
    controller.perform("coverage-round", body: [], in: room) { answer = $0 }
    rounds.settle()
    guard case .failure(let error)? = answer else { Issue.record("\(String(describing: answer))"); return }
    #expect(error.status == 503 && error.code == .ledgerUnavailable)
    #expect(scene.round == nil && !controller.isBusy && !controller.stage.isHeld)
}

@Test func sayIsAnsweredAtOnceAndBadBodiesAreRefused() throws {
    let (controller, _, _, room) = started()
    var answer: Result<CommandAnswer, APIError>?
    controller.perform("coverage-say", body: Array(#"{"words": "hello"}"#.utf8), in: room) { answer = $0 }
    guard case .success(let said)? = answer else { Issue.record("\(String(describing: answer))"); return }
    #expect(said.status == 200 && said.document == ["said": "hello"])
    #expect(controller.stage.takeEvents() == [SceneEvent(name: "said", data: ["words": "hello"])])
    for (body, code) in [(#"{"shout": "x"}"#, ErrorCode.badField), ("{", .badJSON), ("{}", .badField), (#"{"words": 3}"#, .badField)] {
        guard case .failure(let error) = controller.perform("coverage-say", body: Array(body.utf8), in: room) else {
            Issue.record("\(body) was taken"); continue
        }
        #expect(error.status == 400 && error.code == code, "\(body): \(error.message)")
    }
    guard case .failure(let unknown) = controller.perform("coverage-sing", body: [], in: room) else { Issue.record("sang"); return }
    #expect(unknown.status == 404 && unknown.code == .notFound)
    #expect(controller.stage.takeEvents().isEmpty)
}

@Test func aJoiningClientIsGreetedAloneAndAStopInterruptsTheRound() throws {
    let (controller, _, rounds, room) = started()
    #expect(controller.joined(client: "c7", in: room) ==
            [SceneEvent(name: "said", data: ["words": "Welcome"], client: "c7", audience: .client)])
    controller.perform("coverage-round", body: [], in: room) { _ in }
    rounds.settle()
    controller.stopping()
    rounds.settle()
    #expect(rounds.ended == [1: true] && !controller.isBusy)
}

@Test func aTakeoverResumesThisScenesRoundAndInterruptsAnothers() throws {
    let (controller, scene, rounds, room) = started()
    let award = RecordedAward(id: 1, item: 1, coins: 5, player: "alice", name: "Alice", point: coinMiddle, viewTime: 3, serverTime: 3)
    rounds.stillRunning["r1"] = [
        RecordedRound(id: 7, scene: "api-coverage", room: "r1", seed: 9, salt: "", commitment: "", settings: #"{"coins":5}"#,
                      mediaStart: 1, prizes: [1: 5], awards: [award]),
        RecordedRound(id: 8, scene: "rain", room: "r1", seed: 2, salt: "s", commitment: "c", settings: "{}",
                      mediaStart: 1, prizes: [:], awards: []),
    ]
    var answered: Takeover?
    controller.tookOver(in: room) { answered = $0 }
    #expect(answered == nil)
    rounds.settle()
    let takeover = try #require(answered)
    #expect(takeover.outcomes == [.resumed, .scene] && takeover.failure == nil)
    #expect(takeover.events == [SceneEvent(name: "said", data: ["words": "taken over"])])
    #expect(scene.round == 7 && scene.paidRound == 7 && controller.isBusy)
    #expect(controller.admitTap(by: "alice", in: room) != nil)
    rounds.settle()
    #expect(rounds.ended == [8: true])
}

@Test func aTakeoverTheLedgerFailsTakesNothingUp() throws {
    let (controller, scene, rounds, room) = started()
    rounds.fails = true
    var answered: Takeover?
    controller.tookOver(in: room) { answered = $0 }
    rounds.settle()
    let takeover = try #require(answered)
    #expect(takeover.failure != nil && takeover.outcomes.isEmpty && scene.round == nil && !controller.isBusy)
}

@Test func anAwardTheLedgerAnswersLaterHoldsTheSceneUntilThen() throws {
    let (controller, scene, rounds, room) = started()
    controller.perform("coverage-round", body: [], in: room) { _ in }
    rounds.settle()
    let awarding = LaterAwarding()
    var result: TapResult?
    controller.stage.tap(at: coinMiddle, viewTime: 0, now: 0.5, by: Tapper(client: "c1"), awarding: awarding) { result = $0 }
    #expect(result == nil && controller.stage.isHeld && scene.paidRound == nil)
    controller.stage.advance(to: 1)
    #expect(controller.stage.now == 0.5)   // the clock stands still while the commit runs
    awarding.settle()
    #expect(result?.awarded == true && scene.paidRound == 1 && controller.stage.now == 1)
    // A ledger that refuses: nothing is awarded, nothing announced.
    let (other, otherScene, otherRounds, otherRoom) = started()
    other.perform("coverage-round", body: [], in: otherRoom) { _ in }
    otherRounds.settle()
    let refused = other.stage.tap(at: coinMiddle, viewTime: 0, now: 0, by: Tapper(client: "c1"), awarding: DownAwarding())
    #expect(!refused.awarded && refused.failure != nil && refused.events.isEmpty && otherScene.paidRound == nil)
}

@Test func theAuditChecksTheRoundsRecord() throws {
    let good = RecordedRound(id: 1, scene: "api-coverage", room: "r1", seed: 42, salt: "", commitment: "", settings: #"{"coins":5}"#,
                             mediaStart: 0, prizes: [1: 5],
                             awards: [RecordedAward(id: 1, item: 1, coins: 5, player: "p", name: "P", point: coinMiddle, viewTime: 1, serverTime: 1)])
    #expect(CoverageAudit.differences(good).isEmpty)
    #expect(CoverageAudit.pool(good) == 5)
    #expect(CoverageAudit.document(good) == ["coins": 5])
    #expect(CoverageAudit.revealed(good) == ["seed": "42"])
    var bad = good
    bad.prizes = [1: 6]
    bad.awards.append(RecordedAward(id: 2, item: 2, coins: 5, player: "q", name: "Q", point: coinMiddle, viewTime: 2, serverTime: 2))
    #expect(CoverageAudit.differences(bad) == ["prizes: [1: 6], expected [1: 5]",
                                               "award 2: item 2 of 5 coins, expected item 1 of 5",
                                               "2 awards, at most 1"])
    bad.settings = "[]"
    #expect(CoverageAudit.differences(bad) == [#"settings: not {"coins": n}: []"#] && CoverageAudit.pool(bad) == 0)
    #expect(CoverageScene.roundAuditor.map(ObjectIdentifier.init) == ObjectIdentifier(CoverageAudit.self))
}

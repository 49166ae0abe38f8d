import Foundation
import Logging
import Testing
@testable import Layercast
@testable import LayercastHub
import LayercastScenes

/// The application assembled from a `Configuration` over `EmbeddedTransport` and a memory ledger:
/// a rain round from its admin command to its recorded end, without sockets.
@Suite struct ApplicationTests {
    @Test func aRoundRunsEndToEndOverTheEmbeddedTransport() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("application-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configuration = Configuration(scenes: try SceneRegistry(SceneCatalog.all))
        configuration.ledger.url = "memory:"
        configuration.ledger.directory = data
        configuration.hub.adminToken = "application-admin-token"
        configuration.hub.sceneOptions["rain"] = try SceneOptionValues(for: RainScene.self, ["rain-every": "0"])
        try configuration.validate()
        let transport = EmbeddedTransport()
        var logger = Logger(label: "application-tests")
        logger.logLevel = .critical
        let application = try Application(configuration: configuration, transport: transport, logger: logger) {}
        let hub = application.hub
        #expect(FileManager.default.fileExists(atPath: data))  // made for the player-id key

        // join
        let player = transport.makeClientID()
        hub.connect(player, join: JoinRequest.parse(["scene": "rain", "room": "lobby", "role": "player", "player": "anon-applicationplayer01"],
                                                    identities: application.identities), address: "10.0.0.1")
        let welcome = try #require(messages(transport.read(player, from: hub)).first)
        #expect(welcome["type"]?.stringValue == "welcome")
        let publicID = try #require(welcome["player"]?["id"]?.stringValue)

        // a round, started by the admin command
        let started = try hub.perform(command: "rain", room: "lobby", body: Array(#"{"seed":7,"duration":6,"pool":100,"winners":10,"minCoins":1,"maxCoins":30}"#.utf8),
                                      authorization: "Bearer application-admin-token", oversize: false).get()
        #expect(started.status == 201)
        func rain() -> RainScene? { hub.rooms["rain/lobby"]?.stage?.scene as? RainScene }
        func tick(until phase: RainScene.Phase) {
            for _ in 0..<600 where rain()?.phase != phase {
                transport.advance(by: 0.1)
                hub.tick()
            }
        }
        tick(until: .raining)
        for _ in 0..<60 { transport.advance(by: hub.tickInterval); hub.tick() }  // packets on screen past minVisible
        _ = transport.read(player, from: hub)

        // a tap on a packet the player can claim
        let stage = try #require(hub.rooms["rain/lobby"]?.stage)
        let target = try #require(Self.claimablePoint(on: stage, by: publicID))
        hub.receive(player, text: #"{"type":"tap","x":\#(target.x),"y":\#(target.y),"viewTime":\#(stage.now),"id":1}"#)
        let won = messages(transport.read(player, from: hub))
        let award = try #require(won.first { $0["type"]?.stringValue == "event" && $0["name"]?.stringValue == "award" })
        let round = try #require(award["data"]?["rain"]?.intValue)
        #expect(hub.metrics.awards == 1)

        // the round ends, and the ledger holds it finished with the award
        tick(until: .results)
        hub.tick()
        var document: JSONValue?
        hub.roundDocument(id: "\(round)") { document = try? $0.get() }
        hub.deliverLedgerAnswers()
        let recorded = try #require(document)
        #expect(recorded["status"]?.stringValue == "finished")
        #expect(recorded["awards"]?.arrayValue?.map { $0["packet"]?.intValue } == [award["data"]?["packet"]?.intValue])
        #expect(recorded["awards"]?.arrayValue?.map { $0["player"]?.stringValue } == [publicID])
        #expect(recorded["awarded"]?.intValue == award["data"]?["coins"]?.intValue)
    }

    /// The messages among what was written.
    private func messages(_ written: [EmbeddedTransport.Written]) -> [JSONValue] {
        written.compactMap { if case .message(let value) = $0 { value } else { nil } }
    }

    /// A point where a tap by `player` at the stage's media time claims a packet, probed through
    /// the stage's tap path with an awarding that commits nothing, so nothing changes.
    private static func claimablePoint(on stage: SceneStage, by player: String) -> CGPoint? {
        for y in stride(from: 4.0, to: 736, by: 12) {
            for x in stride(from: 4.0, to: 414, by: 12) {
                let point = CGPoint(x: x, y: y)
                let probe = stage.tap(at: point, viewTime: stage.now, now: stage.now, by: Tapper(client: "probe", player: player),
                                      awarding: CommitsNothing())
                if case .claim = probe.outcome { return point }
            }
        }
        return nil
    }
}

/// An awarding service that commits nothing: a probing tap through it decides and changes nothing.
private final class CommitsNothing: ImmediateAwarding {
    struct Refused: Error {}

    func commit(_ award: Award) throws -> Int { throw Refused() }
}

private extension Hub {
    /// One whole text message from `client`.
    func receive(_ client: ClientID, text: String) {
        Array(text.utf8).withUnsafeBytes { receive(client, $0, first: true, final: true, binary: false) }
    }
}

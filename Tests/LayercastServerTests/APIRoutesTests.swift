import LayercastSceneAPI
@testable import LayercastServer
import LayercastHub
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastScenes
import LayercastWire
import Logging
import Testing

/// The HTTP API as functions: requests go straight to `APIRoutes` over a hub on an
/// `EmbeddedTransport` and a memory ledger, with no lws and no socket. A command for a room whose
/// origin is another node is answered later, when the origin's answer comes or the wait ends.
@Suite struct APIRoutesTests {
    /// A cluster of one other node, "far", that runs every room: it records what is forwarded.
    final class FarOrigin: HubCluster {
        var node: String { "near" }
        var relayKeepalive: Double { 0.125 }
        var health: JSONValue { ["status": "ok"] }
        var metricsText: String { "" }
        var joinRefusal: String? { nil }
        func ticked() {}
        private(set) var commands: [ForwardedCommand] = []
        func roomsDocument(fps: Int, answer: @escaping (JSONValue) -> Void) { answer(["rooms": []]) }
        func opened(_ key: String) {}
        func closed(_ key: String, origin: Bool) {}
        func publish(frame: EncodedMessage, in key: String) {}
        func publish(event: EncodedMessage, in key: String) {}
        func deliver(_ message: EncodedMessage, to client: String, on node: String) {}
        func forward(_ input: ForwardedInput, to origin: String) {}
        func forward(_ command: ForwardedCommand, to origin: String) { commands.append(command) }
        func answer(_ id: Int, _ answer: Result<CommandAnswer, APIError>, to node: String) {}
        func requestFullFrame(_ key: String, from origin: String) {}
        func sceneFields(of id: String) -> JSONObject? { nil }
    }

    static let adminToken = "routes-admin-token"

    let transport = EmbeddedTransport()
    let hub: Hub
    let routes: APIRoutes

    init(adminToken: String? = Self.adminToken) {
        var configuration = HubConfiguration(scenes: try! SceneRegistry(SceneCatalog.all))
        configuration.adminToken = adminToken
        configuration.sceneOptions["rain"] = try! SceneOptionValues(for: RainScene.self, ["rain-every": "0"])
        var logger = Logger(label: "route-tests")
        logger.logLevel = .critical
        let ledger = MemoryLedger()
        let services = LedgerServices(ledger)
        let identities = IdentityPolicy(tokenSecret: nil, allowAnonymous: true, pseudonyms: PlayerPseudonyms(secret: Array("route-tests".utf8)))
        hub = Hub(configuration: configuration, transport: transport, identities: identities, ledger: services,
                  services: SceneServices(awarding: services, rounds: services, logger: logger), logger: logger)
        routes = APIRoutes(hub: hub)
    }

    /// Every answer `request` gets, in order, and whether a route took it.
    func answers(_ request: APIRequest) -> (routed: Bool, answers: Box) {
        let box = Box()
        let routed = routes.answer(request) { box.responses.append($0) }
        return (routed, box)
    }

    final class Box { var responses: [APIResponse] = [] }

    func document(_ response: APIResponse) throws -> JSONValue {
        try JSONValue.parse(response.body)
    }

    static let rainBody = Array(#"{"seed":7,"duration":6,"pool":100,"winners":10,"minCoins":1,"maxCoins":30}"#.utf8)

    @Test func theSceneListIsAnsweredAtOnceAsJSON() throws {
        let (routed, box) = answers(APIRequest(.get, "/api/scenes"))
        #expect(routed)
        let response = try #require(box.responses.first)
        #expect(box.responses.count == 1)
        #expect(response.status == 200 && response.contentType == "application/json" && response.error == nil)
        let ids = try document(response)["scenes"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        let expected = SceneCatalog.all.map { $0.info.id }
        #expect(ids == expected)
    }

    @Test func aPatternSegmentAndTheLimitReachTheHub() throws {
        let (_, box) = answers(APIRequest(.get, "/api/rooms/no room/leaderboard", query: ["limit": "5"]))
        let response = try #require(box.responses.first)
        #expect(response.status == 400 && response.error == .badRoom)
        #expect(APIRequest(.get, "/", query: ["limit": "0"]).limit(default: 10) == 1)
        #expect(APIRequest(.get, "/", query: ["limit": "1000"]).limit(default: 10) == 100)
        #expect(APIRequest(.get, "/", query: ["limit": "x"]).limit(default: 10) == 10)
    }

    @Test func anUnknownAPIPathIs404ButAnyOtherGetIsLeftToTheFiles() throws {
        let (routed, box) = answers(APIRequest(.get, "/api/nothing"))
        #expect(routed)
        let response = try #require(box.responses.first)
        #expect(response.status == 404 && response.error == .notFound)
        #expect(try document(response)["message"]?.stringValue == "no API route at /api/nothing")
        let file = answers(APIRequest(.get, "/scene.html"))
        #expect(!file.routed && file.answers.responses.isEmpty)
        let post = answers(APIRequest(.post, "/api/scenes"))
        #expect(post.routed && post.answers.responses.map(\.status) == [404])
    }

    @Test func metricsAndTheWebSocketPathAreText() throws {
        let metrics = try #require(answers(APIRequest(.get, "/metrics")).answers.responses.first)
        #expect(metrics.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.body.contains("# TYPE layercast_clients gauge"))
        let ws = try #require(answers(APIRequest(.get, "/ws")).answers.responses.first)
        #expect(ws.status == 426 && ws.body == "this is the layercast.v1 WebSocket endpoint\n")
    }

    @Test func aCommandNeedsTheAdminToken() throws {
        let none = try #require(answers(APIRequest(.post, "/api/rooms/lobby/rain", body: Self.rainBody)).answers.responses.first)
        #expect(none.status == 401 && none.error == .unauthorized)
        let wrong = APIRequest(.post, "/api/rooms/lobby/rain", authorization: "Bearer nope", body: Self.rainBody)
        #expect(answers(wrong).answers.responses.map(\.error) == [.unauthorized])
        let disabled = APIRoutesTests(adminToken: nil)
        let off = APIRequest(.post, "/api/rooms/lobby/rain", authorization: "Bearer \(Self.adminToken)", body: Self.rainBody)
        #expect(disabled.answers(off).answers.responses.map(\.error) == [.adminDisabled])
    }

    @Test func aCommandOnThisNodeIsAnsweredAtOnce() throws {
        let request = APIRequest(.post, "/api/rooms/lobby/rain", authorization: "Bearer \(Self.adminToken)", body: Self.rainBody)
        let response = try #require(answers(request).answers.responses.first)
        #expect(response.status == 201)
        #expect(try document(response)["rain"]?.intValue == 1)
        let oversize = APIRequest(.post, "/api/rooms/lobby/rain", authorization: "Bearer \(Self.adminToken)", oversize: true)
        #expect(answers(oversize).answers.responses.map(\.status) == [413])
    }

    @Test func aCommandForAnotherNodesRoomIsAnsweredWhenTheOriginAnswers() throws {
        let cluster = FarOrigin()
        hub.cluster = cluster
        let request = APIRequest(.post, "/api/rooms/lobby/rain", authorization: "Bearer \(Self.adminToken)", body: Self.rainBody)
        let (routed, box) = answers(request)
        #expect(routed && box.responses.isEmpty)  // the room is being placed: the command waits
        hub.place("rain/lobby", origin: "far")
        let forwarded = try #require(cluster.commands.first)
        #expect(cluster.commands.count == 1 && forwarded.command == "rain" && forwarded.body == Self.rainBody)
        #expect(box.responses.isEmpty)
        hub.answered(forwarded.id, .success(CommandAnswer(status: 201, ["rain": 9])))
        #expect(box.responses.map(\.status) == [201])
        #expect(try document(box.responses[0])["rain"]?.intValue == 9)
        hub.answered(forwarded.id, .success(CommandAnswer(status: 201, ["rain": 10])))  // a repeat is dropped
        #expect(box.responses.count == 1)
    }

    @Test func aCommandWhoseOriginIsSilentIsAnswered503AfterTheWait() throws {
        hub.cluster = FarOrigin()
        hub.place("rain/lobby", origin: "far")
        let request = APIRequest(.post, "/api/rooms/lobby/stop-rain", authorization: "Bearer \(Self.adminToken)")
        let (_, box) = answers(request)
        #expect(box.responses.isEmpty)
        transport.advance(by: Hub.commandTimeout - 0.5)
        hub.tick()
        #expect(box.responses.isEmpty)
        transport.advance(by: 1)
        hub.tick()
        #expect(box.responses.map(\.status) == [503] && box.responses.map(\.error) == [.originTimeout])
    }
}

import Foundation
import LayercastHub
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastScenes
import Logging

/// A hub on an `EmbeddedTransport` with a fresh memory ledger and an awarding service the test
/// controls: no sockets, no files, a manual clock.
final class HubHarness {
    let transport: EmbeddedTransport
    let ledger: any Ledger
    let awarding: ScriptedAwarding
    let hub: Hub

    let identities: IdentityPolicy

    /// A hub of `scenes` numbering its clients from `firstClient`, on its own ledger or on `sharing`'s,
    /// or on `services` (a ledger on its own thread; `ledger` is then an unused memory ledger).
    init(identities: IdentityPolicy = IdentityPolicyFixtures.anonymous, firstClient: Int = 1, sharing: HubHarness? = nil,
         services given: LedgerServices? = nil, scenes: SceneRegistry = HubHarness.scenes,
         _ configure: (inout HubConfiguration) -> Void = { _ in }) {
        self.identities = identities
        transport = EmbeddedTransport(firstClient: firstClient)
        ledger = sharing?.ledger ?? MemoryLedger()
        let services = given ?? LedgerServices(ledger)
        awarding = ScriptedAwarding(services)
        var configuration = HubConfiguration(scenes: scenes)
        configuration.adminToken = Self.adminToken
        configuration.sceneOptions["rain"] = try! SceneOptionValues(for: RainScene.self, ["rain-every": "0"])
        configure(&configuration)
        var logger = Logger(label: "hub-tests")
        logger.logLevel = .critical
        hub = Hub(configuration: configuration, transport: transport, identities: identities, ledger: services,
                  services: SceneServices(awarding: awarding, rounds: services, logger: logger), logger: logger)
    }

    static let adminToken = "hub-admin-token"
    /// The scenes this build ships.
    static let scenes = try! SceneRegistry(SceneCatalog.all)

    /// Connects a client with the join `query` asks for, from `address`.
    @discardableResult
    func join(_ query: [String: String], address: String = "10.0.0.1") -> ClientID {
        let id = transport.makeClientID()
        hub.connect(id, join: JoinRequest.parse(query, identities: identities), address: address)
        return id
    }

    /// A player with its own anonymous id.
    func player(scene: String, room: String = "lobby", id: Int, address: String = "10.0.0.1") -> ClientID {
        join(["scene": scene, "room": room, "role": "player", "player": "anon-hubtestplayer\(String(format: "%04d", id))"], address: address)
    }

    /// Everything the client can be written now.
    func read(_ id: ClientID) -> [EmbeddedTransport.Written] { transport.read(id, from: hub) }

    /// The messages among what the client can be written now.
    func messages(_ id: ClientID) -> [JSONValue] {
        read(id).compactMap { if case .message(let value) = $0 { value } else { nil } }
    }

    /// Sends one whole text message from the client.
    func send(_ id: ClientID, _ text: String) {
        Array(text.utf8).withUnsafeBytes { hub.receive(id, $0, first: true, final: true, binary: false) }
    }

    /// Runs `count` ticks, the clock moving one tick interval before each.
    func tick(_ count: Int = 1) {
        for _ in 0..<count {
            transport.advance(by: hub.tickInterval)
            hub.tick()
        }
    }
}

/// The identity policies the hub tests run under.
enum IdentityPolicyFixtures {
    /// Anonymous players only.
    static let anonymous = IdentityPolicy(tokenSecret: nil, allowAnonymous: true, pseudonyms: PlayerPseudonyms(secret: Array("hub-tests".utf8)))
    /// Token players only.
    static let tokensOnly = IdentityPolicy(tokenSecret: "hub-token-secret", allowAnonymous: false,
                                           pseudonyms: PlayerPseudonyms(secret: Array("hub-tests".utf8)))
}

/// The ledger as awarding service, except that the next `failures` commits fail.
final class ScriptedAwarding: Awarding {
    let ledger: LedgerServices
    var failures = 0
    private(set) var committed: [Award] = []

    init(_ ledger: LedgerServices) { self.ledger = ledger }

    func commit(_ award: Award, done: @escaping (Result<Int, any Error>) -> Void) {
        if failures > 0 {
            failures -= 1
            return done(.failure(Failure()))
        }
        ledger.commit(award) { [self] result in
            if case .success = result { committed.append(award) }
            done(result)
        }
    }

    struct Failure: Error {}
}

extension JSONValue {
    var type: String? { self["type"]?.stringValue }
    var name: String? { self["name"]?.stringValue }
}

extension Array where Element == JSONValue {
    /// The messages of `type` (and event `name`).
    func of(_ type: String, _ name: String? = nil) -> [JSONValue] {
        filter { $0.type == type && (name == nil || $0.name == name) }
    }
}

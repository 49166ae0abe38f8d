import Foundation
import LayercastHub
import LayercastLedger
import LayercastSceneAPI

/// Everything `layercast serve` can be told, the transport's and the hub's; the defaults are the
/// embedded defaults.
public struct ServerConfiguration: Sendable {
    /// Address to listen on (an IPv4 or IPv6 literal, or an interface name).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one.
    public var port = 8080
    /// Directory served as static files.
    public var publicDirectory = "public"
    /// Frames per second of every room, 1…120.
    public var fps = 30
    /// Most WebSocket clients at once, over all rooms.
    public var maxClients = 1000
    /// Most rooms a join may open (every room costs a frame each tick); the admin API may open more.
    public var maxRooms = 100
    /// Origins, besides the page's own and localhost, that may connect and frame the pages;
    /// `*` allows any.
    public var allowedOrigins: [String] = []
    /// Seconds an empty room lives before it is removed.
    public var roomIdleSeconds: Double = 30
    /// Seconds a client may go without taking a frame before it is dropped.
    public var stallTimeoutSeconds: Double = 10
    /// Seconds a POST body may take to arrive whole after its head; then 408 and close.
    public var bodyTimeoutSeconds: Double = 10
    /// Seconds a request head may take to arrive whole from its first byte (or a connection to
    /// send one, from its accept), however slowly it drips; then 408 and close (`--head-timeout`).
    public var headTimeoutSeconds: Double = 10
    /// The most emitter particles one room's frame evaluates (docs/protocol.md, "Particles").
    public var maxParticles = 2_000

    /// Directory of the award ledger (`layercast.sqlite`), created when missing, and of `player-id.key`.
    public var dataDirectory = "data"
    /// Where the award ledger is; nil: SQLite in `dataDirectory`.
    public var ledger: LedgerLocation?
    /// Bearer token of the admin API; nil disables it.
    public var adminToken: String?
    /// Secret that player tokens are signed with (HMAC-SHA256); nil accepts no tokens.
    public var tokenSecret: String?
    /// Whether players may join with an anonymous id; by default only when no secret is set.
    public var allowAnonymous: Bool?
    /// The key of public player ids (`PlayerPseudonyms`); nil: the one kept in
    /// `<dataDirectory>/player-id.key`, made on first start.
    public var playerIDSecret: String?
    /// Whether token players are shown by their raw `sub` rather than a public id.
    public var showTokenSubjects = false
    /// Proxies (CIDRs) whose `X-Forwarded-For` names the client they speak for.
    public var trustedProxies: [String] = []
    /// What one client address may do.
    public var addressLimits = AddressLimitRules()
    /// The scenes rooms may run.
    public var scenes: SceneRegistry
    /// Each scene's options by scene id; a scene missing here runs with its defaults.
    public var sceneOptions: [String: SceneOptionValues] = [:]
    /// For testing `layercast loadtest` only: every frame whose number is a multiple of this is
    /// not sent (each client gets the next one in full, a skip); nil sends every frame.
    public var dropFramesEvery: Int?
    /// Whether permessage-deflate (RFC 7692) is taken from clients that offer it: each message is
    /// compressed once, whatever number of clients it goes to (`Server+Deflate.swift`).
    public var permessageDeflate = true

    /// This node's id (`/healthz`; the cluster's name for it).
    public var node = "layercast"
    /// The number of the first client (`c…`): a cluster gives each node its own range, so that
    /// client ids are unique over the cluster.
    public var firstClientNumber = 1
    /// How this process holds the ledger, locked at start (another process holding it in a
    /// mode that excludes this one stops the start). A sole writer records every rain still
    /// running as interrupted by its last stop; in a cluster, the node that takes a room over
    /// ends that room's running rains instead.
    public var ledgerRole = LedgerRole.soleWriter
    /// Seconds a ledger call may take before it is answered `ledger_unavailable` (a tap, a
    /// round's start or end, a read; docs/reliability.md, "The ledger's deadline").
    public var ledgerDeadline = LedgerServices.defaultDeadline
    /// Ledger calls that may wait for the ledger's thread; more are refused at once.
    public var ledgerQueue = 256
    /// Whether other processes listen on the same port (`SO_REUSEPORT`, `serve --workers`): the
    /// server then makes its listening socket itself and hands each connection to lws.
    public var sharesPort = false

    /// The embedded defaults, serving `scenes`.
    public init(scenes: SceneRegistry) {
        self.scenes = scenes
    }

    /// Whether anonymous players are let in.
    var anonymousAllowed: Bool { allowAnonymous ?? (tokenSecret == nil) }

    /// What of it the hub is told.
    var hub: HubConfiguration {
        var hub = HubConfiguration(scenes: scenes)
        hub.node = node
        hub.fps = fps
        hub.maxClients = maxClients
        hub.maxRooms = maxRooms
        hub.roomIdleSeconds = roomIdleSeconds
        hub.stallTimeoutSeconds = stallTimeoutSeconds
        hub.maxParticles = maxParticles
        hub.addressLimits = addressLimits
        hub.adminToken = adminToken
        hub.sceneOptions = sceneOptions
        hub.dropFramesEvery = dropFramesEvery
        return hub
    }
}

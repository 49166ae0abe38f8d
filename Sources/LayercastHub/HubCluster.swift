import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// The cluster a hub is one node of (LayercastCluster, docs/cluster.md). Each room has one origin
/// node, which runs its scene and resolves its input; the other nodes with clients in it relay
/// its frames. The hub tells the cluster what it opens, publishes and forwards; the cluster
/// answers through `Hub.place`, `Hub.relay…` and `Hub.resolve`. Called on the hub's thread only.
public protocol HubCluster: AnyObject {
    /// This node's id.
    var node: String { get }
    /// The longest an origin goes without publishing a frame of a room the other nodes relay:
    /// a still room's keepalives go to them this often (`sparse`), so that none takes it for dead.
    var relayKeepalive: Double { get }
    /// `/healthz`: `status`, `node`, `cluster`, and `reason` while `degraded`.
    var health: JSONValue { get }
    /// Why this node takes no join now (it cannot reach the cluster), or nil when it takes them.
    var joinRefusal: String? { get }
    /// At every tick of the hub, before its rooms tick: the cluster steps down from the rooms this
    /// node may no longer hold (`Hub.stepDown`).
    func ticked()
    /// The cluster's lines of `/metrics`.
    var metricsText: String { get }
    /// `/api/rooms` over the whole cluster (as the nodes last reported), through `answer`, once:
    /// at once or after a Redis round trip, on the hub's thread.
    func roomsDocument(fps: Int, answer: @escaping (JSONValue) -> Void)
    /// The hub opened room `key` (`scene/name`): find its origin, then call `Hub.place`.
    func opened(_ key: String)
    /// The hub closed room `key`; `origin` when this node was its origin.
    func closed(_ key: String, origin: Bool)
    /// A frame of a room this node is origin of, for the nodes that relay it.
    func publish(frame: EncodedMessage, in key: String)
    /// An event of a room this node is origin of, for everyone in the room on other nodes.
    func publish(event: EncodedMessage, in key: String)
    /// An event for one client on another node (`node`).
    func deliver(_ message: EncodedMessage, to client: String, on node: String)
    /// Input of a client on this node, for the room's origin.
    func forward(_ input: ForwardedInput, to origin: String)
    /// An admin command for a room whose origin is `origin`; its answer comes back through
    /// `Hub.answered`.
    func forward(_ command: ForwardedCommand, to origin: String)
    /// The answer to a command `node` forwarded to this origin.
    func answer(_ id: Int, _ answer: Result<CommandAnswer, APIError>, to node: String)
    /// A relayed room lost its place in the stream (a gap): ask its origin for a full frame.
    func requestFullFrame(_ key: String, from origin: String)
    /// The `welcome` fields (`SceneFields`) of scene `id`, which this node lacks, as a live node
    /// that runs it published them; nil when no live node does. A room of such a scene is opened
    /// as relayed-only: `opened` then finds it an origin among those nodes.
    func sceneFields(of id: String) -> JSONObject?
}

/// Why a node stopped serving a room it had (`Hub.stepDown`; `layercast_stepdowns_total{reason}`).
public enum StepDownReason: String, CaseIterable, Sendable {
    /// Redis has not confirmed this node's heartbeat for the heartbeat key's life: any of its
    /// rooms may have another origin, and a room it relays gets no frames.
    case redis
    /// The room's lease was not confirmed within its length (the hub's thread hung, or Redis did
    /// not answer the renewals): another node may hold it.
    case lease
    /// The ledger refused an award in the room's round as `fenced`: another node claimed it.
    case fenced
}

/// Where a room's frames come from on this node.
public enum RoomSource: Equatable, Sendable {
    /// This node runs the scene (always, without a cluster).
    case scene
    /// Another node is the origin; this node relays its frames.
    case origin(String)
    /// The cluster has not yet said who the origin is.
    case placing
}

/// A client's input (or its join), forwarded from the node it is on to the room's origin. The
/// node has checked it (decoding, role, rate limits) before forwarding.
public struct ForwardedInput: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case tap(x: Double, y: Double, viewTime: Double, id: JSONValue?)
        case drag(phase: String, x: Double, y: Double, viewTime: Double)
        /// The client joined: the origin answers with what its scene tells joiners.
        case joined
    }

    /// The room, `scene/name`.
    public var room: String
    /// The node the client is on, where answers go.
    public var node: String
    /// The client's protocol id (unique in the cluster).
    public var client: String
    /// The player's public id and name; nil for a spectator.
    public var player: String?
    public var name: String?
    public var action: Action

    public init(room: String, node: String, client: String, player: String?, name: String?, action: Action) {
        self.room = room
        self.node = node
        self.client = client
        self.player = player
        self.name = name
        self.action = action
    }
}

/// An admin command forwarded from the node that took the request to the room's origin; the
/// sender has checked the token, the body's size and the room's name.
public struct ForwardedCommand: Equatable, Sendable {
    /// Unique on the sending node: the answer names it.
    public var id: Int
    /// The sending node.
    public var node: String
    /// The room, `scene/name`.
    public var room: String
    public var command: String
    public var body: [UInt8]

    public init(id: Int, node: String, room: String, command: String, body: [UInt8]) {
        self.id = id
        self.node = node
        self.room = room
        self.command = command
        self.body = body
    }
}

/// A forwarded command waiting for its answer.
struct PendingCommand {
    let command: ForwardedCommand
    let deadline: Double
    let reply: (Result<CommandAnswer, APIError>) -> Void
    /// Whether it has gone to an origin (else it waits for the room to be placed).
    var sent = false

    init(command: ForwardedCommand, deadline: Double, reply: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        self.command = command
        self.deadline = deadline
        self.reply = reply
    }
}

/// What a relayed room made of a frame from its origin.
public enum RelayOutcome: Equatable, Sendable {
    /// Applied: the room's clients get it.
    case applied
    /// A delta that does not follow the room's newest frame; not applied. Ask for a full frame.
    case gap
    /// Not for a relayed room here, or not a frame.
    case ignored
}

import LayercastHub
import LayercastJSON
import LayercastSceneAPI
import LayercastWire

/// The documented HTTP API (docs/protocol.md, "HTTP"; docs/openapi.yaml): each route a function
/// from an `APIRequest` to an `APIResponse`, answered by the hub. The answer comes at once, or
/// later: a ledger read, an admin command this cluster node forwards to the room's origin.
struct APIRoutes {
    /// Answers a request through its `respond`, exactly once.
    typealias Handler = (Hub, APIRequest, _ respond: @escaping (APIResponse) -> Void) -> Void

    let hub: Hub
    private let table: RouteTable<Handler>

    init(hub: Hub) {
        self.hub = hub
        table = Self.table()
    }

    /// Answers `request` through `respond`: at once, or (a forwarded command) when the origin
    /// answers or times out. A path under `/api/` that no route takes, and any POST, is answered
    /// 404; false, with nothing answered, for a GET elsewhere that no route takes (a static file's).
    func answer(_ request: APIRequest, respond: @escaping (APIResponse) -> Void) -> Bool {
        guard let route = table.match(request.method, request.path) else {
            if request.method == .post {
                respond(.error(APIError(404, .notFound, "nothing takes a POST at \(request.path.prefix(100))")))
            } else if request.path.hasPrefix("/api/") {
                respond(.error(APIError(404, .notFound, "no API route at \(LogText.escaped(request.path))")))
            } else {
                return false
            }
            return true
        }
        var routed = request
        routed.parameters = route.parameters
        route.handler(hub, routed, respond)
        return true
    }

    private static func table() -> RouteTable<Handler> {
        var table = RouteTable<Handler>()
        /// A route answered at once.
        func get(_ pattern: String, _ answer: @escaping (Hub, APIRequest) -> APIResponse) {
            table.add(.get, pattern) { hub, request, respond in respond(answer(hub, request)) }
        }
        get("/api/scenes") { hub, _ in .json(hub.scenesDocument()) }
        table.add(.get, "/api/rooms") { hub, _, respond in hub.roomsDocument { respond(.json($0)) } }
        // The ledger's reads are answered when the ledger's thread has read them (Hub+Ledger.swift).
        table.add(.get, "/api/rooms/{room}/leaderboard") { hub, request, respond in
            hub.leaderboard(room: request["room"], limit: request.limit(default: 10)) { respond(APIResponse($0)) }
        }
        table.add(.get, "/api/players/{player}") { hub, request, respond in hub.playerDocument(id: request["player"]) { respond(APIResponse($0)) } }
        table.add(.get, "/api/me") { hub, request, respond in hub.ownDocument(authorization: request.authorization) { respond(APIResponse($0)) } }
        table.add(.get, "/api/rains/{rain}") { hub, request, respond in hub.roundDocument(id: request["rain"]) { respond(APIResponse($0)) } }
        get("/healthz") { hub, _ in .json(hub.healthDocument()) }
        get("/metrics") { hub, _ in .text(hub.metricsText(), type: "text/plain; version=0.0.4; charset=utf-8") }
        get("/ws") { _, _ in .text("this is the layercast.v1 WebSocket endpoint\n", status: 426) }
        table.add(.post, "/api/rooms/{room}/{command}") { hub, request, respond in
            hub.perform(command: request["command"], room: request["room"], body: request.body,
                        authorization: request.authorization, oversize: request.oversize) { answer in
                respond(APIResponse(answer.map(\.document), status: (try? answer.get().status) ?? 200))
            }
        }
        return table
    }
}

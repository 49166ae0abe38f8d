import CLibWebSockets
import LayercastHub
import LayercastJSON
import LayercastScenes
import LayercastWire

// The documented HTTP API (docs/protocol.md, "HTTP"; docs/openapi.yaml): each route hands over
// to the hub and writes its answer.
extension Server {
    static func routeTable() -> RouteTable {
        var table = RouteTable()
        table.add(.get, "/api/scenes") { server, request in server.write(request.wsi, json: server.hub.scenesDocument()) }
        table.add(.get, "/api/rooms") { server, request in server.write(request.wsi, json: server.hub.roomsDocument()) }
        table.add(.get, "/api/rooms/{room}/leaderboard") { server, request in
            server.write(request.wsi, server.hub.leaderboard(room: request["room"], limit: server.limitArgument(request.wsi, default: 10)))
        }
        table.add(.get, "/api/players/{player}") { server, request in
            server.write(request.wsi, server.hub.playerDocument(id: request["player"]))
        }
        table.add(.get, "/api/me") { server, request in
            server.write(request.wsi, server.hub.ownDocument(authorization: server.header(request.wsi, WSI_TOKEN_HTTP_AUTHORIZATION)))
        }
        table.add(.get, "/api/rains/{rain}") { server, request in server.write(request.wsi, server.hub.rainDocument(id: request["rain"])) }
        table.add(.get, "/healthz") { server, request in server.write(request.wsi, json: server.hub.healthDocument()) }
        table.add(.get, "/metrics") { server, request in
            server.write(request.wsi, status: 200, type: "text/plain; version=0.0.4; charset=utf-8", body: server.hub.metricsText())
        }
        table.add(.get, "/ws") { server, request in
            server.write(request.wsi, status: 426, type: "text/plain; charset=utf-8", body: "this is the layercast.v1 WebSocket endpoint\n")
        }
        table.add(.post, "/api/rooms/{room}/{command}") { server, request in
            guard let post = server.pendingPosts.removeValue(forKey: request.wsi) else { return -1 }
            // In a cluster the room's origin may answer later: the answer is written when it comes.
            var immediate: Result<CommandAnswer, APIError>?
            var waiting = false
            let wsi = request.wsi
            server.hub.perform(command: request["command"], room: request["room"], body: post.body,
                               authorization: post.authorization, oversize: post.oversize) { answer in
                if waiting { server.answerLater(wsi, answer) } else { immediate = answer }
            }
            guard let answer = immediate else {
                waiting = true
                server.deferredAnswers[wsi] = .some(nil)
                return 0
            }
            return server.write(wsi, answer.map(\.document), status: (try? answer.get().status) ?? 200)
        }
        return table
    }

    /// Keeps `answer` for a request that waited for it and asks to write it (`httpWritable`); a
    /// request whose connection has closed meanwhile is forgotten.
    func answerLater(_ wsi: OpaquePointer, _ answer: Result<CommandAnswer, APIError>) {
        guard deferredAnswers[wsi] != nil else { return }
        deferredAnswers[wsi] = answer
        lws_callback_on_writable(wsi)
    }

    /// `?limit=N`, clamped to 1…100.
    func limitArgument(_ wsi: OpaquePointer, default value: Int) -> Int {
        min(100, max(1, queryArguments(wsi)["limit"].flatMap { Int($0) } ?? value))
    }
}

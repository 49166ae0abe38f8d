import LayercastJSON
import LayercastSceneKit
import LayercastScenes
import LayercastWire

extension Hub {
    /// `POST /api/rooms/{room}/{command}`: the admin command, run by the host of the scene that
    /// takes it (opening the room when it is not open; a refusal closes such a room again), with
    /// the bearer credential `authorization` and the request body. `oversize`: the body was
    /// longer than the transport reads.
    public func perform(command: String, room name: String, body: [UInt8], authorization: String?,
                        oversize: Bool) -> Result<CommandAnswer, APIError> {
        guard let scene = SceneCatalog.all.first(where: { $0.commands.contains(command) }) else {
            return .failure(APIError(404, "not_found", "nothing takes a POST at /api/rooms/\(name.prefix(32))/\(command.prefix(32))"))
        }
        guard let adminToken = configuration.adminToken else {
            return .failure(APIError(403, "admin_disabled", "the admin API is off: start the server with --admin-token"))
        }
        guard let authorization, authorization.hasPrefix("Bearer "),
              Self.constantTimeEqual(Array(authorization.utf8.dropFirst(7)), Array(adminToken.utf8)) else {
            return .failure(APIError(401, "unauthorized", "send the admin token as Authorization: Bearer <token>"))
        }
        guard !oversize else { return .failure(APIError(413, "too_large", "the body is over \(Self.maxCommandBody) bytes")) }
        guard NameRule.isValid(name) else { return .failure(APIError(400, "bad_room", "room must be \(NameRule.description)")) }
        let now = transport.now
        let key = "\(scene.info.id)/\(name)"
        let opened = rooms[key] == nil
        let room = room(scene: scene, name: name, now: now)
        switch room.source {
        case .scene: break
        case .origin(let origin):
            return .failure(APIError(421, "not_origin", "this node is not the origin of \(key); its origin is node \(origin): send the command there (docs/cluster.md)"))
        case .placing:
            return .failure(APIError(503, "not_ready", "this node is placing \(key) in the cluster; repeat the command in a moment"))
        }
        let answer = room.host.perform(command, body: body, in: room)
        if case .failure = answer, opened, room.clients.isEmpty, !room.host.isBusy { rooms[key] = nil }
        broadcast(room.takeEvents(), in: room, tapArrival: nil)
        return answer
    }

    /// The most bytes of a command's body that are read.
    public static let maxCommandBody = 16 * 1024

    /// Compares two secrets in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

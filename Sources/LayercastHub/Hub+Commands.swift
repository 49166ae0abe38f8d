import LayercastJSON
import LayercastSceneAPI
import LayercastWire

extension Hub {
    /// `POST /api/rooms/{room}/{command}`: the admin command, run by the controller of the room's
    /// scene (`commandScene`; opening the room when it is not open; a refusal closes such a room again), with
    /// the bearer credential `authorization` and the request body. `oversize`: the body was
    /// longer than the transport reads. Without a cluster the answer is at once; in a cluster it
    /// is the room's origin's, which may come later (`perform(command:…reply:)`).
    public func perform(command: String, room name: String, body: [UInt8], authorization: String?,
                        oversize: Bool) -> Result<CommandAnswer, APIError> {
        var answer: Result<CommandAnswer, APIError> = .failure(APIError(503, .notReady, "the room's origin has not answered yet"))
        perform(command: command, room: name, body: body, authorization: authorization, oversize: oversize) { answer = $0 }
        return answer
    }

    /// `perform`, answering through `reply` (on the hub's thread): at once when this node runs
    /// the room, else when its origin answers the forwarded command, or with 503 after
    /// `commandTimeout` seconds.
    public func perform(command: String, room name: String, body: [UInt8], authorization: String?, oversize: Bool,
                        reply: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        guard let scene = commandScene(command, room: name) else {
            return reply(.failure(APIError(404, .notFound, "nothing takes a POST at /api/rooms/\(name.prefix(32))/\(command.prefix(32))")))
        }
        guard let adminToken = configuration.adminToken else {
            return reply(.failure(APIError(403, .adminDisabled, "the admin API is off: start the server with --admin-token")))
        }
        guard let authorization, authorization.hasPrefix("Bearer "),
              Self.constantTimeEqual(Array(authorization.utf8.dropFirst(7)), Array(adminToken.utf8)) else {
            return reply(.failure(APIError(401, .unauthorized, "send the admin token as Authorization: Bearer <token>")))
        }
        guard !oversize else { return reply(.failure(APIError(413, .tooLarge, "the body is over \(Self.maxCommandBody) bytes"))) }
        guard NameRule.isValid(name) else { return reply(.failure(APIError(400, .badRoom, "room must be \(NameRule.description)"))) }
        let key = "\(scene.info.id)/\(name)"
        let opened = rooms[key] == nil
        let room = room(scene: scene, name: name, now: clock.now)
        if room.source == .scene, !room.awaitsTakeover { return run(command, body: body, in: room, opened: opened, reply: reply) }
        nextCommand += 1
        let forwarded = ForwardedCommand(id: nextCommand, node: cluster?.node ?? "", room: key, command: command, body: body)
        pendingCommands[forwarded.id] = PendingCommand(command: forwarded, deadline: clock.now + Self.commandTimeout, reply: reply)
        if case .origin(let origin) = room.source {
            pendingCommands[forwarded.id]?.sent = true
            cluster?.forward(forwarded, to: origin)
        }
    }

    /// A command another node forwarded to this origin (its sender checked the token, the body's
    /// size and the room's name); its answer goes to `reply`, for the sender, on the hub's thread:
    /// at once, or when the ledger answers (a round's start: by the ledger's deadline). While the
    /// room's takeover waits on the ledger, the command waits too (at most `commandTimeout`).
    public func perform(_ forwarded: ForwardedCommand, reply: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        guard let room = rooms[forwarded.room], room.source == .scene else {
            return reply(.failure(APIError(503, .notReady, "the room moved to another node while the command was on its way; repeat it")))
        }
        guard !room.awaitsTakeover else {
            // Kept under a number of this node's until the takeover answers (`sendWaitingCommands`).
            nextCommand += 1
            pendingCommands[nextCommand] = PendingCommand(command: forwarded, deadline: clock.now + Self.commandTimeout, reply: reply)
            return
        }
        run(forwarded.command, body: forwarded.body, in: room, opened: false, reply: reply)
    }

    /// The scene of the room `name` that takes `command`: of the registered scenes that take it,
    /// the first whose room `name` is open here, or else the first of them.
    func commandScene(_ command: String, room name: String) -> (any Scene.Type)? {
        let candidates = configuration.scenes.scenes(taking: command)
        return candidates.first { rooms["\($0.info.id)/\(name)"] != nil } ?? candidates.first
    }

    /// The origin's answer to a command this node forwarded.
    public func answered(_ id: Int, _ answer: Result<CommandAnswer, APIError>) {
        pendingCommands.removeValue(forKey: id)?.reply(answer)
    }

    /// Seconds a forwarded command waits for its origin's answer.
    public static let commandTimeout = 3.0

    /// Sends the commands that waited for `room` to be placed to its origin, or runs them here
    /// (once its takeover no longer waits).
    func sendWaitingCommands(of room: Room) {
        for (id, pending) in pendingCommands where pending.command.room == room.key && !pending.sent {
            switch room.source {
            case .scene where room.awaitsTakeover:
                break
            case .scene:
                pendingCommands[id] = nil
                run(pending.command.command, body: pending.command.body, in: room, opened: false, reply: pending.reply)
            case .origin(let origin):
                pendingCommands[id]?.sent = true
                cluster?.forward(pending.command, to: origin)
            case .placing:
                break
            }
        }
    }

    /// Answers 503 to forwarded commands whose origin has not answered in time.
    func expireCommands(at now: Double) {
        for (id, pending) in pendingCommands where pending.deadline <= now {
            pendingCommands[id] = nil
            pending.reply(.failure(APIError(503, .originTimeout, "the room's origin did not answer within \(Int(Self.commandTimeout)) s; repeat the command")))
        }
    }

    /// Runs `command` in `room`, answering through `reply` once the controller has (a command that
    /// waits on the ledger answers later).
    private func run(_ command: String, body: [UInt8], in room: Room, opened: Bool,
                     reply: @escaping (Result<CommandAnswer, APIError>) -> Void) {
        guard let controller = room.controller else { return reply(.failure(APIError(404, .notFound, "this node does not run the scene of \(room.key)"))) }
        controller.perform(command, body: body, in: room) { [self] answer in
            if case .failure = answer, opened, room.clients.isEmpty, !controller.isBusy, cluster == nil, rooms[room.key] === room { rooms[room.key] = nil }
            broadcast(room.takeEvents(), in: room, tapArrival: nil)
            reply(answer)
        }
    }

    /// The most bytes of a command's body that are read.
    public static let maxCommandBody = 16 * 1024

    /// Compares two secrets in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

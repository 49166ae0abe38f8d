import CLibWebSockets
import LayercastScenes
import LayercastWire

extension Server {
    /// Collects a fragment of a client message; a whole message is decoded and handled.
    func receive(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard let connection = connections[wsi], connection.closing == nil else { return }
        if lws_is_first_fragment(wsi) != 0 {
            connection.incoming.removeAll(keepingCapacity: true)
            connection.oversize = false
        }
        if !connection.oversize {
            if connection.incoming.count + bytes.count > ClientMessage.maxBytes {
                connection.oversize = true
                connection.incoming.removeAll(keepingCapacity: true)
            } else {
                connection.incoming.append(contentsOf: bytes)
            }
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return }
        if lws_frame_is_binary(wsi) != 0 {
            reject(connection, ProtocolError(.binary, "binary messages are not part of layercast.v1; send JSON text"))
        } else if connection.oversize {
            reject(connection, ProtocolError(.tooLarge, "message is over \(ClientMessage.maxBytes) bytes"))
        } else {
            let result = connection.incoming.withUnsafeBytes { ClientMessage.decode($0) }
            switch result {
            case .success(let message): handle(message, from: connection)
            case .failure(let error): reject(connection, error)
            }
        }
        connection.incoming.removeAll(keepingCapacity: true)
        connection.oversize = false
    }

    private func handle(_ message: ClientMessage, from connection: Connection) {
        let now = monotonicSeconds()
        guard let room = connection.room else { return }
        switch message {
        case .ping(let id):
            enqueue(EncodedMessage(ServerMessage.pong(id: id, time: room.mediaTime(at: now))), to: connection, tapArrival: nil)
        case .tap(let x, let y, let viewTime, let id):
            guard connection.role == .player, let player = connection.player else {
                return reject(connection, ProtocolError(.forbidden, "spectators cannot tap"))
            }
            guard allowTap(by: player.id, at: now) else {
                return reject(connection, ProtocolError(.rateLimited, "more than 20 taps per second"))
            }
            guard hostLimits.allowTap(connection.host, at: now) else {
                metrics.hostRefusals[.taps, default: 0] += 1
                let rate = Self.decimal(configuration.hostLimits.tapsPerSecond)
                return reject(connection, ProtocolError(.hostLimit, "more than \(rate) taps per second from your network"))
            }
            if let rain = room.scene as? RainScene {
                return rainTap(rain, in: room, x: x, y: y, viewTime: viewTime, id: id, from: connection, now: now)
            }
            let events = room.tap(x: x, y: y, viewTime: viewTime, by: connection.id, at: now)
            if events.contains(where: { $0.client == connection.id }) {
                broadcast(events, in: room, tapArrival: now, tapper: connection)
            } else {
                metrics.tapLatency.observe(monotonicSeconds() - now)
                broadcast(events, in: room, tapArrival: nil)
            }
        case .drag(let phase, let x, let y, let viewTime):
            guard connection.role == .player else {
                return reject(connection, ProtocolError(.forbidden, "spectators cannot drag"))
            }
            guard connection.drags.allow(at: now) else {
                return reject(connection, ProtocolError(.rateLimited, "more than 120 drag steps per second"))
            }
            broadcast(room.drag(phase, x: x, y: y, viewTime: viewTime, by: connection.id, at: now), in: room, tapArrival: nil)
        }
    }

    /// Takes a token from the player's tap bucket, shared by all of its connections; buckets
    /// idle long enough to be full again are forgotten once there are many.
    private func allowTap(by player: String, at now: Double) -> Bool {
        if playerTaps.count > 10_000 { playerTaps = playerTaps.filter { !$0.value.isFull(at: now) } }
        return playerTaps[player, default: RateLimiter(rate: 20, burst: 20)].allow(at: now)
    }

    /// A rate for a message: "8", "2.5".
    static func decimal(_ x: Double) -> String { x.rounded() == x && abs(x) < 1e15 ? "\(Int(x))" : "\(x)" }

    /// Answers bad input with an `error`, counts it, and closes with 1008 after repeated abuse.
    func reject(_ connection: Connection, _ error: ProtocolError) {
        metrics.rejected[error.code, default: 0] += 1
        logger.debug("rejected", metadata: ["client": "\(connection.id)", "code": "\(error.code.rawValue)"])
        enqueue(EncodedMessage(ServerMessage.error(error)), to: connection, tapArrival: nil)
        if connection.errors.record(at: monotonicSeconds()), connection.closing == nil {
            metrics.clientsDropped["abuse", default: 0] += 1
            connection.closing = (Int32(LWS_CLOSE_STATUS_POLICY_VIOLATION.rawValue), "too many bad messages")
        }
    }
}

import LayercastJSON
import LayercastSceneAPI
import LayercastWire

extension Hub {
    /// A fragment of a client's message; a whole message is decoded and handled. `first` and
    /// `final` mark the message's first and last fragment; `binary` a binary message.
    public func receive(_ id: ClientID, _ bytes: UnsafeRawBufferPointer, first: Bool, final: Bool, binary: Bool) {
        guard let client = clients[id], client.closing == nil else { return }
        if first {
            client.incoming.removeAll(keepingCapacity: true)
            client.oversize = false
        }
        if !client.oversize {
            if client.incoming.count + bytes.count > ClientMessage.maxBytes {
                client.oversize = true
                client.incoming.removeAll(keepingCapacity: true)
            } else {
                client.incoming.append(contentsOf: bytes)
            }
        }
        guard final else { return }
        if binary {
            reject(client, ProtocolError(.binary, "binary messages are not part of layercast.v1; send JSON text"))
        } else if client.oversize {
            reject(client, ProtocolError(.tooLarge, "message is over \(ClientMessage.maxBytes) bytes"))
        } else {
            switch client.incoming.withUnsafeBytes({ ClientMessage.decode($0) }) {
            case .success(let message): handle(message, from: client)
            case .failure(let error): reject(client, error)
            }
        }
        client.incoming.removeAll(keepingCapacity: true)
        client.oversize = false
    }

    private func handle(_ message: ClientMessage, from client: Client) {
        let now = clock.now
        guard let room = client.room else { return }
        switch message {
        case .ping(let id):
            enqueue(encoded(ServerMessage.pong(id: id, time: room.mediaTime(at: now))), to: client, tapArrival: nil)
        case .ack(let n):
            guard n <= client.highestFrameSent else {
                return reject(client, ProtocolError(.badField, "ack.n must be a frame this client was sent (it is \(n), the newest sent is \(client.highestFrameSent))"))
            }
            room.startsAcknowledging(client)
            client.acks.acknowledged(n, at: now)
            transport.wake(client.id)
        case .tap(let x, let y, let viewTime, let id):
            guard client.role == .player, let player = client.player else {
                return reject(client, ProtocolError(.forbidden, "spectators cannot tap"))
            }
            guard allowTap(by: player.id, at: now) else {
                return reject(client, ProtocolError(.rateLimited, "more than 20 taps per second"))
            }
            guard addressLimits.allowTap(client.address, at: now) else {
                metrics.addressRefusals[.taps, default: 0] += 1
                let rate = RateText.decimal(configuration.addressLimits.tapsPerSecond)
                return reject(client, ProtocolError(.hostLimit, "more than \(rate) taps per second from your network"))
            }
            if room.source != .scene {
                return forward(.tap(x: x, y: y, viewTime: viewTime, id: id.map(JSONValue.number)), from: client, in: room)
            }
            let tapper = Tapper(client: client.name, player: player.id, name: player.name, id: id.map(JSONValue.number))
            if let error = tap(x: x, y: y, viewTime: viewTime, by: tapper, local: client, in: room, at: now) { reject(client, error) }
        case .drag(let phase, let x, let y, let viewTime):
            guard client.role == .player else {
                return reject(client, ProtocolError(.forbidden, "spectators cannot drag"))
            }
            guard client.drags.allow(at: now) else {
                return reject(client, ProtocolError(.rateLimited, "more than 120 drag steps per second"))
            }
            if room.source != .scene || room.awaitsTakeover {
                return forward(.drag(phase: phase.rawValue, x: x, y: y, viewTime: viewTime), from: client, in: room)
            }
            broadcast(room.drag(phase, x: x, y: y, viewTime: viewTime, by: client.name, at: now), in: room, tapArrival: nil)
        }
    }

    /// Sends checked input to the origin of a room this node relays; while the room is still
    /// being placed, or taken over here, it is refused.
    private func forward(_ action: ForwardedInput.Action, from client: Client, in room: Room) {
        guard let cluster, case .origin(let origin) = room.source else {
            return reject(client, ProtocolError(.notReady, "the room is starting on this server; try again in a moment"))
        }
        cluster.forward(ForwardedInput(room: room.key, node: cluster.node, client: client.name, player: client.player?.id,
                                       name: client.player?.name, action: action), to: origin)
    }

    /// Takes a token from the player's tap bucket, shared by all of its connections; buckets
    /// idle long enough to be full again are forgotten once there are many.
    private func allowTap(by player: String, at now: Double) -> Bool {
        if playerTaps.count > 10_000 { playerTaps = playerTaps.filter { !$0.value.isFull(at: now) } }
        return playerTaps[player, default: RateLimiter(rate: 20, burst: 20)].allow(at: now)
    }

    /// Answers bad input with an `error`, counts it, and closes with 1008 after repeated abuse.
    func reject(_ client: Client, _ error: ProtocolError) {
        metrics.rejected[error.code, default: 0] += 1
        logger.debug("rejected", metadata: ["client": "\(client.name)", "code": "\(error.code.rawValue)", "message": "\(error.message)"])
        enqueue(encoded(ServerMessage.error(error)), to: client, tapArrival: nil)
        if client.errors.record(at: clock.now), client.closing == nil {
            metrics.clientsDropped["abuse", default: 0] += 1
            client.closing = (CloseCode.policyViolation, "too many bad messages")
        }
    }
}

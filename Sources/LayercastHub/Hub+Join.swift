import Foundation
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastSceneAPI
import LayercastWire

extension Hub {
    /// Registers a client the transport has just connected, numbered `id`, with the join its
    /// handshake asked for and the address it is counted under: it joins its room (first
    /// `welcome`, then what the scene tells joiners, then frames), or it is sent the error that
    /// refuses it and then closed.
    public func connect(_ id: ClientID, join: Result<JoinRequest, ProtocolError>, address: String) {
        let now = clock.now
        switch join {
        case .failure(let error):
            let client = Client(id: id, role: .spectator, address: address, now: now, tick: configuration.tickInterval)
            clients[id] = client
            refuse(client, error, code: CloseCode.policyViolation)
        case .success(let join):
            let client = Client(id: id, role: join.role, player: join.player, address: address, now: now, tick: configuration.tickInterval)
            clients[id] = client
            let scene = configuration.scenes.scene(id: join.sceneID)
            // A scene this node lacks is relayed from a live node of the cluster that runs it.
            let elsewhere = scene == nil ? cluster?.sceneFields(of: join.sceneID) : nil
            guard scene != nil || elsewhere != nil else {
                refuse(client, ProtocolError(.unknownScene, "no scene \"\(join.sceneID)\"; see /api/scenes"), code: CloseCode.policyViolation)
                return
            }
            if let refusal = cluster?.joinRefusal {
                refuse(client, ProtocolError(.notReady, refusal), code: CloseCode.serviceRestart)
                return
            }
            guard rooms.values.reduce(0, { $0 + $1.clients.count }) < configuration.maxClients else {
                refuse(client, ProtocolError(.serverFull, "the server is at its limit of \(configuration.maxClients) clients"),
                       code: CloseCode.tryAgainLater)
                return
            }
            if let refusal = admitAddress(client, anonymous: join.player?.isAnonymous == true, now: now) {
                refuse(client, refusal, code: CloseCode.tryAgainLater)
                return
            }
            guard rooms["\(join.sceneID)/\(join.room)"] != nil || rooms.count < configuration.maxRooms else {
                refuse(client, ProtocolError(.serverFull, "the server runs its limit of \(configuration.maxRooms) rooms; join one that is open"),
                       code: CloseCode.tryAgainLater)
                return
            }
            // A player's welcome tells its total: the room is joined once the ledger has read it.
            guard let player = join.player else { return enter(client, join: join, scene: scene, elsewhere: elsewhere, total: 0) }
            ledger.read({ ledger throws(LedgerError) in try ledger.totalCoins(player: player.id) }) { [self] result in
                if case .failure(let error) = result { logger.error("ledger read failed", metadata: ["error": "\(error)"]) }
                guard clients[id] === client else { return }  // gone meanwhile
                enter(client, join: join, scene: scene, elsewhere: elsewhere, total: (try? result.get()) ?? 0)
            }
        }
    }

    /// Puts an admitted client in its room: first `welcome` (a player's with `total`), then what
    /// the scene tells joiners, then frames.
    private func enter(_ client: Client, join: JoinRequest, scene: (any Scene.Type)?, elsewhere: JSONObject?, total: Int) {
        let now = clock.now
        let room = if let scene { room(scene: scene, name: join.room, now: now) } else {
            relayedRoom(sceneID: join.sceneID, fields: elsewhere ?? [:], name: join.room, now: now)
        }
        client.room = room
        room.clients.append(client)
        let welcome = ServerMessage.welcome(room: join.room, sceneFields: room.sceneFields, role: join.role.rawValue, client: client.name,
                                            fps: fps, time: room.mediaTime(at: now),
                                            player: join.player.map { welcomePlayer($0, total: total, secret: join.mintedSecret) })
        enqueue(encoded(welcome), to: client, tapArrival: nil)
        switch room.source {
        case .scene:
            for event in room.controller?.joined(client: client.name, in: room) ?? [] {
                enqueue(encoded(ServerMessage.event(event)), to: client, tapArrival: nil)
            }
        case .origin(let origin):
            cluster?.forward(joined(client, in: room), to: origin)
        case .placing:
            break  // told when the room is placed
        }
        logger.debug("joined", metadata: ["client": "\(client.name)", "room": "\(room.key)", "role": "\(join.role.rawValue)"])
    }

    /// Forgets a client whose connection has closed.
    public func disconnect(_ id: ClientID) {
        guard let client = clients.removeValue(forKey: id) else { return }
        if client.holdsAddressSlot { addressLimits.disconnect(client.address, at: clock.now) }
        client.room?.remove(client)
        client.room = nil
    }

    /// The protocol id (`c…`) of a connected client, for the transport's log lines.
    public func clientName(_ id: ClientID) -> String? { clients[id]?.name }

    /// Counts `client` against its address's limits; the refusal when one is reached.
    private func admitAddress(_ client: Client, anonymous: Bool, now: Double) -> ProtocolError? {
        let rules = configuration.addressLimits
        guard addressLimits.connect(client.address) else {
            metrics.addressRefusals[.connections, default: 0] += 1
            return ProtocolError(.hostLimit, "your network already holds \(rules.connections) connections to this server; close one and try again")
        }
        client.holdsAddressSlot = true
        guard !anonymous || addressLimits.allowAnonymousJoin(client.address, at: now) else {
            metrics.addressRefusals[.anonymousJoins, default: 0] += 1
            return ProtocolError(.hostLimit, "more than \(rules.anonymousJoinsPerMinute) guest players joined from your network this minute; try again in a minute")
        }
        return nil
    }

    /// What `welcome` tells a player about itself: public id, name, coins won so far, and the
    /// anonymous id the server made for it (`secret`, only when it brought none); 0 coins when the
    /// ledger could not tell in time.
    private func welcomePlayer(_ player: PublicPlayer, total: Int, secret: String?) -> JSONValue {
        var document: JSONObject = ["id": .string(player.id), "name": .string(player.name), "total": .number(Double(total))]
        if let secret { document["secret"] = .string(secret) }
        return .object(document)
    }

    private func refuse(_ client: Client, _ error: ProtocolError, code: Int) {
        metrics.rejected[error.code, default: 0] += 1
        enqueue(encoded(ServerMessage.error(error)), to: client, tapArrival: nil)
        client.closing = (code, error.code.rawValue)
    }
}

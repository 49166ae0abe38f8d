import Foundation
import LayercastEngine
import LayercastIdentity
import LayercastJSON
import LayercastLedger
import LayercastScenes
import LayercastWire

// The red-packet rain around its scene: rains recorded in the ledger before they start, with
// only their commitment public, every award committed before anyone hears of it, the per-player
// tap rate, the ledger kept in step with the scene's phases, and the schedule (docs/protocol.md,
// "The red-packet rain" and "Provably fair rains").
extension Server {
    /// The rain room `name`, created (and ticked to frame 0) when it does not exist yet.
    func rainRoom(named name: String, now: Double) -> Room {
        room(scene: RainScene.self, name: name, now: now)
    }

    /// The rain a request or the schedule leaves to the server's defaults.
    var rainDefaults: RainRequest.Order {
        RainRequest.Order(settings: configuration.rainDefaults, maxAwardsPerPlayer: configuration.rainMaxAwardsPerPlayer,
                          maxCoinsPerPlayer: configuration.rainMaxCoinsPerPlayer)
    }

    /// Starts a rain in the rain room `name` now, with a fresh secret salt and its per-player
    /// limits settled over the players in the room: the ledger records it first, then the scene
    /// counts down. Refused while the room runs a rain.
    func startRain(inRoom name: String, order: RainRequest.Order, now: Double) -> Result<JSONValue, APIError> {
        let room = rainRoom(named: name, now: now)
        guard let scene = room.scene as? RainScene, let state = room.rain else {
            return .failure(APIError(500, "internal", "room \(name) holds no rain scene"))
        }
        if let running = state.running ?? scene.rain?.id {
            return .failure(APIError(409, "rain_running", "room \(name) is running rain \(running); start the next one when it is idle"))
        }
        room.advance(to: now)
        let mediaStart = room.mediaTime(at: now)
        let players = Set(room.connections.compactMap { $0.player?.id }).count
        var settings = order.settings(players: players)
        settings.salt = RainCommitment.makeSalt()
        let commitment = RainCommitment(settings: settings, size: scene.configuration.size)
        let plan = PrizePlan(settings: settings)
        let id: Int64
        do {
            id = try ledger.beginRain(NewRain(room: name, seed: settings.seed, salt: RainCommitment.hex(settings.salt),
                                              commitment: commitment.digest,
                                              settings: Self.row(settings, scene.configuration, players: players),
                                              mediaStart: mediaStart, prizes: plan.prizes, createdAt: Date()))
        } catch {
            logger.error("ledger refused a rain", metadata: ["room": "\(name)", "error": "\(error)"])
            return .failure(APIError(503, "ledger_unavailable", "the ledger could not record the rain: \(error.message)"))
        }
        room.context.run { _ = scene.startRain(id: id, settings: settings, plan: plan) }
        state.running = id
        rainTaps = [:]
        logger.info("rain started", metadata: ["room": "\(name)", "rain": "\(id)", "commitment": "\(commitment.digest)"])
        broadcast(room.takeEvents(), in: room, tapArrival: nil)
        guard let rain = scene.rain else { return .failure(APIError(500, "internal", "the scene did not start rain \(id)")) }
        return .success([
            "rain": .number(Double(id)), "room": .string(name), "commitment": .string(commitment.digest),
            "duration": .number(settings.duration), "packets": .number(Double(settings.packets)),
            "winners": .number(Double(settings.winners)), "pool": .number(Double(settings.pool)),
            "minCoins": .number(Double(settings.minCoins)), "maxCoins": .number(Double(settings.maxCoins)),
            "players": .number(Double(players)), "limits": Self.limits(settings),
            "countdownAt": .number(Quantize.time(rain.countdownAt)), "startsAt": .number(Quantize.time(rain.startsAt)),
            "endsAt": .number(Quantize.time(rain.endsAt)),
        ])
    }

    /// A rain's per-player rules as the API shows them.
    static func limits(_ settings: RainSettings) -> JSONValue {
        ["maxAwardsPerPlayer": .number(Double(settings.maxAwardsPerPlayer)),
         "maxCoinsPerPlayer": .number(Double(settings.maxCoinsPerPlayer)),
         "minVisible": .number(settings.minVisible), "tapRate": .number(settings.tapRate)]
    }

    /// A player's tap in a rain room: held to the rain's tap rate, then the scene picks the packet
    /// and applies the rain's rules, the ledger commits the award, and only then does the scene
    /// show it and announce it; everything else is answered to the tapper alone.
    func rainTap(_ scene: RainScene, in room: Room, x: Double, y: Double, viewTime: Double, id: Double?,
                 from connection: Connection, now: Double) {
        guard let player = connection.player else { return }
        if let rate = scene.rain?.settings.tapRate, !rainTaps[player.id, default: RateLimiter(rate: rate, burst: rate)].allow(at: now) {
            return reject(connection, ProtocolError(.rateLimited, "more than \(Self.decimal(rate)) taps per second during this rain"))
        }
        let point = CGPoint(x: x, y: y)
        let tapID = id.map(JSONValue.number)
        var refused: ProtocolError?
        let events = room.input(viewTime: viewTime, at: now) { time, mediaNow -> [SceneEvent] in
            let resolution = scene.resolveTap(at: point, time: time, by: player.id)
            guard case .claim(let claim) = resolution else {
                if case .refused(_, let rule) = resolution { metrics.rainRefusals[rule, default: 0] += 1 }
                scene.answer(resolution, id: tapID, client: connection.id)
                return scene.takeEvents()
            }
            let award = AwardRow(id: 0, rain: claim.rain, packet: claim.packet, player: player.id, name: player.name,
                                 coins: claim.coins, x: x, y: y, viewTime: time, serverTime: mediaNow, createdAt: Date())
            let total: Int
            do {
                _ = try ledger.recordAward(award)
                total = try ledger.totalCoins(player: player.id)
            } catch {
                logger.error("ledger refused an award", metadata: ["rain": "\(claim.rain)", "packet": "\(claim.packet)", "error": "\(error)"])
                refused = ProtocolError(.ledgerUnavailable, "the award could not be recorded, so nothing was awarded; tap again")
                return []
            }
            scene.confirm(claim, player: player.id, name: player.name, total: total, client: connection.id, id: tapID)
            return scene.takeEvents()
        }
        if let refused { return reject(connection, refused) }
        metrics.awards += events.filter { $0.name == "award" }.count
        broadcast(events, in: room, tapArrival: now, tapper: connection)
    }

    /// After a rain room's tick: records the end of a rain once the scene shows its results,
    /// and starts a scheduled rain when the room has clients and has been idle long enough.
    func rainTicked(_ room: Room, now: Double) {
        guard let scene = room.scene as? RainScene, let state = room.rain else { return }
        if let id = state.running, scene.phase == .results || scene.phase == .idle {
            do {
                try ledger.endRain(id, status: .finished, at: Date())
                state.running = nil
                logger.info("rain finished", metadata: ["room": "\(room.name)", "rain": "\(id)"])
            } catch {
                logger.error("ledger could not end a rain; retrying next tick", metadata: ["rain": "\(id)", "error": "\(error)"])
            }
        }
        guard scene.phase == .idle, state.running == nil else {
            state.idleSince = now
            return
        }
        let every = configuration.rainEverySeconds
        guard every > 0, !room.connections.isEmpty, now - state.idleSince >= every else { return }
        var order = rainDefaults
        order.settings.seed = Self.randomSeed()
        if case .failure(let error) = startRain(inRoom: room.name, order: order, now: now) {
            logger.error("scheduled rain not started", metadata: ["room": "\(room.name)", "error": "\(error.message)"])
            state.idleSince = now
        }
    }

    /// Marks every rain still running as interrupted (the server is stopping mid-rain).
    func interruptRains() {
        for room in rooms.values {
            guard let state = room.rain, let id = state.running else { continue }
            do {
                try ledger.endRain(id, status: .interrupted, at: Date())
                state.running = nil
            } catch {
                logger.error("ledger could not mark a rain interrupted", metadata: ["rain": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// A seed safe in JSON (below 2^53), drawn from the system generator.
    static func randomSeed() -> UInt64 { UInt64.random(in: 0...RainSettings.maxSeed) }

    /// The ledger's copy of a rain's settings and screen, and the players its limits divide by.
    static func row(_ settings: RainSettings, _ configuration: RainScene.Configuration, players: Int) -> RainSettingsRow {
        RainSettingsRow(duration: settings.duration, pool: settings.pool, winners: settings.winners,
                        minCoins: settings.minCoins, maxCoins: settings.maxCoins,
                        width: Double(configuration.size.width), height: Double(configuration.size.height),
                        maxAwardsPerPlayer: settings.maxAwardsPerPlayer, maxCoinsPerPlayer: settings.maxCoinsPerPlayer,
                        minVisible: settings.minVisible, tapRate: settings.tapRate, players: players)
    }
}

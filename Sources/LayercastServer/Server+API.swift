import CLibWebSockets
import Foundation
import LayercastAudit
import LayercastJSON
import LayercastLedger
import LayercastScenes
import LayercastWire

// The JSON API of the rain: the admin request that starts one, and the ledger's leaderboard,
// players and rains (docs/protocol.md, "HTTP").
extension Server {
    /// Answers a GET of the ledger API, or nil when `path` is not one of its routes.
    func ledgerAPI(_ wsi: OpaquePointer, path: String) -> Int32? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let result: Result<JSONValue, APIError>
        switch (parts.count, parts.count > 2 ? parts[2] : "") {
        case (5, "rooms") where parts[4] == "leaderboard":
            result = leaderboard(room: parts[3], limit: limitArgument(wsi, default: 10))
        case (4, "players"):
            guard NameRule.isPlayerID(parts[3]) else {
                return write(wsi, .failure(APIError(400, "bad_player", "a player id is 1–128 of A–Z a–z 0–9 _ . : -")))
            }
            result = playerDocument(id: parts[3])
        case (3, "me"):
            result = ownDocument(authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION))
        case (4, "rains"):
            result = rainDocument(id: parts[3])
        default:
            return nil
        }
        return write(wsi, result)
    }

    /// Starts reading a POST body (to its end, whatever the route, so the connection stays in
    /// step). Returns what the lws callback returns.
    func beginPost(_ wsi: OpaquePointer, path: String) -> Int32 {
        let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0) }
        if length == nil, header(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) != nil {
            return write(wsi, .failure(APIError(411, "length_required", "send the body with a Content-Length (not chunked)")))
        }
        pendingPosts[wsi] = PendingPost(path: path, authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), startedAt: monotonicSeconds())
        return (length ?? 0) == 0 ? completePost(wsi) : 0
    }

    /// A piece of a POST body.
    func receiveBody(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        pendingPosts[wsi]?.append(bytes)
    }

    /// The whole POST body has arrived: authorise and act on it.
    func completePost(_ wsi: OpaquePointer) -> Int32 {
        guard let post = pendingPosts.removeValue(forKey: wsi) else { return -1 }
        guard let room = adminRoute(post.path) else {
            return write(wsi, .failure(APIError(404, "not_found", "nothing takes a POST at \(post.path.prefix(100))")))
        }
        guard let adminToken = configuration.adminToken else {
            return write(wsi, .failure(APIError(403, "admin_disabled", "the admin API is off: start the server with --admin-token")))
        }
        guard let authorization = post.authorization, authorization.hasPrefix("Bearer "),
              Self.constantTimeEqual(Array(authorization.utf8.dropFirst(7)), Array(adminToken.utf8)) else {
            return write(wsi, .failure(APIError(401, "unauthorized", "send the admin token as Authorization: Bearer <token>")))
        }
        guard !post.oversize else {
            return write(wsi, .failure(APIError(413, "too_large", "the body is over \(PendingPost.maxBody) bytes")))
        }
        guard NameRule.isValid(room) else {
            return write(wsi, .failure(APIError(400, "bad_room", "room must be \(NameRule.description)")))
        }
        if post.path.hasSuffix("/snow") {
            let result = SnowRequest.settings(from: post.body, current: snowSettings(inRoom: room))
                .flatMap { setSnow(inRoom: room, settings: $0, now: monotonicSeconds()) }
            return write(wsi, result)
        }
        let result = RainRequest.order(from: post.body, defaults: rainDefaults, seed: Self.randomSeed())
            .flatMap { startRain(inRoom: room, order: $0, now: monotonicSeconds()) }
        return write(wsi, result, status: 201)
    }

    /// The room of `/api/rooms/{room}/rain` or `/api/rooms/{room}/snow`, the admin routes.
    private func adminRoute(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[1] == "api", parts[2] == "rooms", parts[4] == "rain" || parts[4] == "snow" else { return nil }
        return String(parts[3])
    }

    private func leaderboard(room: String, limit: Int) -> Result<JSONValue, APIError> {
        guard NameRule.isValid(room) else { return .failure(APIError(400, "bad_room", "room must be \(NameRule.description)")) }
        return ledgerRead {
            let entries = try ledger.leaderboard(room: room, limit: limit)
            return ["room": .string(room), "players": .array(entries.map { entry in
                ["rank": .number(Double(entry.rank)), "player": .string(entry.player), "name": .string(entry.name),
                 "coins": .number(Double(entry.coins)), "packets": .number(Double(entry.packets))]
            })]
        }
    }

    private func playerDocument(id: String) -> Result<JSONValue, APIError> {
        ledgerRead {
            guard let summary = try ledger.player(id: id, recentLimit: 50) else {
                throw APIError(404, "not_found", "no award was ever made to player \(FieldReader.quoted(id))")
            }
            return Self.playerDocument(summary)
        }
    }

    private static func playerDocument(_ summary: PlayerSummary) -> JSONValue {
        ["player": .string(summary.player), "name": .string(summary.name), "coins": .number(Double(summary.coins)),
         "packets": .number(Double(summary.packets)), "recent": .array(summary.recent.map(Self.awardDocument))]
    }

    /// `GET /api/me`: the totals of the player whose credential (anonymous id or token) is the
    /// bearer token; zero totals for a player never awarded.
    private func ownDocument(authorization: String?) -> Result<JSONValue, APIError> {
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            return .failure(APIError(401, "unauthorized", "send your player id or token as Authorization: Bearer <credential>"))
        }
        switch identities.player(credential: String(authorization.dropFirst(7)), now: Date()) {
        case .failure(let error):
            return .failure(APIError(401, "unauthorized", "that credential names no player: \(error.message)"))
        case .success(let player):
            return ledgerRead {
                Self.playerDocument(try ledger.player(id: player.id, recentLimit: 50)
                    ?? PlayerSummary(player: player.id, name: player.name, coins: 0, packets: 0, recent: []))
            }
        }
    }

    private func rainDocument(id text: String) -> Result<JSONValue, APIError> {
        guard let id = Int64(text), id > 0 else { return .failure(APIError(400, "bad_rain", "a rain id is a positive integer")) }
        return ledgerRead {
            guard let rain = try ledger.rain(id: id) else { throw APIError(404, "not_found", "there is no rain \(id)") }
            let row = rain.settings
            var document: JSONObject = [
                "rain": .number(Double(rain.id)), "room": .string(rain.room), "status": .string(rain.status.rawValue),
                "commitment": .string(rain.commitment),
                "settings": ["duration": .number(row.duration), "pool": .number(Double(row.pool)),
                             "winners": .number(Double(row.winners)), "minCoins": .number(Double(row.minCoins)),
                             "maxCoins": .number(Double(row.maxCoins)), "width": .number(row.width), "height": .number(row.height),
                             "maxAwardsPerPlayer": .number(Double(row.maxAwardsPerPlayer)),
                             "maxCoinsPerPlayer": .number(Double(row.maxCoinsPerPlayer)),
                             "minVisible": .number(row.minVisible), "tapRate": .number(row.tapRate)],
                "players": .number(Double(row.players)),
                "mediaStart": .number(rain.mediaStart), "createdAt": .string(Self.iso(rain.createdAt)),
                "endedAt": rain.endedAt.map { .string(Self.iso($0)) } ?? .null,
                "awarded": .number(Double(rain.awards.reduce(0) { $0 + $1.coins })),
                "awards": .array(rain.awards.map(Self.awardDocument)),
            ]
            // While it runs, the seed, the salt and so which packets pay are the server's secret.
            if rain.status != .running {
                document["seed"] = .number(Double(rain.seed))
                document["salt"] = .string(rain.salt)
                if let settings = RainAudit.settings(of: rain), !rain.commitment.isEmpty {
                    document["commitmentText"] = .string(RainCommitment(settings: settings, size: CGSize(width: row.width, height: row.height)).text)
                }
                document["plan"] = .array(rain.prizes.sorted { $0.key < $1.key }.map { ["packet": .number(Double($0.key)), "coins": .number(Double($0.value))] })
            }
            return .object(document)
        }
    }

    private static func awardDocument(_ award: AwardRow) -> JSONValue {
        ["id": .number(Double(award.id)), "rain": .number(Double(award.rain)), "packet": .number(Double(award.packet)),
         "player": .string(award.player), "name": .string(award.name), "coins": .number(Double(award.coins)),
         "x": .number(award.x), "y": .number(award.y), "viewTime": .number(award.viewTime), "serverTime": .number(award.serverTime),
         "at": .string(iso(award.createdAt))]
    }

    /// Runs a ledger read, turning its failure into 503.
    private func ledgerRead(_ body: () throws -> JSONValue) -> Result<JSONValue, APIError> {
        do {
            return .success(try body())
        } catch let error as APIError {
            return .failure(error)
        } catch {
            logger.error("ledger read failed", metadata: ["error": "\(error)"])
            return .failure(APIError(503, "ledger_unavailable", "the ledger could not be read"))
        }
    }

    /// `?limit=N`, clamped to 1…100.
    private func limitArgument(_ wsi: OpaquePointer, default value: Int) -> Int {
        min(100, max(1, queryArguments(wsi)["limit"].flatMap { Int($0) } ?? value))
    }

    /// A UTC timestamp such as `2026-11-22T10:00:00Z`.
    static func iso(_ date: Date) -> String { date.ISO8601Format() }

    /// Compares two secrets in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

import Foundation
import LayercastIdentity
import LayercastScenes
import LayercastWire

/// What a WebSocket handshake asks for: `/ws?scene=…&room=…&role=…[&token=…|&player=…]`
/// (docs/protocol.md).
struct JoinRequest {
    let scene: any Scene.Type
    let room: String
    let role: Connection.Role
    /// Who a player is, as everyone sees it; nil for spectators.
    let player: PublicPlayer?
    /// The anonymous id the server made up for a player that brought none (its `welcome` tells it).
    var mintedSecret: String? = nil

    /// Validates the query arguments (`name=value` pairs, already URL-decoded); a player's
    /// identity is checked against `identities` at `now`.
    static func parse(_ arguments: [String: String], identities: IdentityPolicy, now: Date = Date()) -> Result<JoinRequest, ProtocolError> {
        guard let sceneID = arguments["scene"] else {
            return .failure(ProtocolError(.unknownScene, "the query names no scene (?scene=…)"))
        }
        guard let scene = SceneCatalog.scene(id: sceneID) else {
            return .failure(ProtocolError(.unknownScene, "no scene \"\(sceneID.prefix(64))\"; see /api/scenes"))
        }
        let room = arguments["room"] ?? "lobby"
        guard isRoomName(room) else {
            return .failure(ProtocolError(.badRoom, "room must be 1–32 of A–Z a–z 0–9 _ -"))
        }
        guard let role = Connection.Role(rawValue: arguments["role"] ?? "player") else {
            return .failure(ProtocolError(.badRole, "role must be player or spectator"))
        }
        guard role == .player else { return .success(JoinRequest(scene: scene, room: room, role: role, player: nil)) }
        return identities.identify(token: arguments["token"], player: arguments["player"], now: now).map {
            JoinRequest(scene: scene, room: room, role: role, player: $0.player, mintedSecret: $0.mintedSecret)
        }
    }

    static func isRoomName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D
        }
    }
}

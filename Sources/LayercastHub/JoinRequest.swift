import Foundation
import LayercastIdentity
import LayercastSceneAPI
import LayercastWire

/// What a WebSocket handshake asks for: `/ws?scene=…&room=…&role=…[&token=…|&player=…]`
/// (docs/protocol.md).
public struct JoinRequest {
    /// The scene asked for, by id; whether this service runs it is the hub's to say.
    public let sceneID: String
    public let room: String
    public let role: ClientRole
    /// Who a player is, as everyone sees it; nil for spectators.
    public let player: PublicPlayer?
    /// The anonymous id the server made up for a player that brought none (its `welcome` tells it).
    public var mintedSecret: String? = nil

    /// Validates the query arguments (`name=value` pairs, already URL-decoded); a player's
    /// identity is checked against `identities` at `now`.
    public static func parse(_ arguments: [String: String], identities: IdentityPolicy, now: Date = Date()) -> Result<JoinRequest, ProtocolError> {
        guard let sceneID = arguments["scene"] else {
            return .failure(ProtocolError(.unknownScene, "the query names no scene (?scene=…)"))
        }
        guard NameRule.isValid(sceneID) else {
            return .failure(ProtocolError(.unknownScene, "a scene id is \(NameRule.description); see /api/scenes"))
        }
        let room = arguments["room"] ?? "lobby"
        guard NameRule.isValid(room) else {
            return .failure(ProtocolError(.badRoom, "room must be \(NameRule.description)"))
        }
        guard let role = ClientRole(rawValue: arguments["role"] ?? "player") else {
            return .failure(ProtocolError(.badRole, "role must be player or spectator"))
        }
        guard role == .player else { return .success(JoinRequest(sceneID: sceneID, room: room, role: role, player: nil)) }
        return identities.identify(token: arguments["token"], player: arguments["player"], now: now).map {
            JoinRequest(sceneID: sceneID, room: room, role: role, player: $0.player, mintedSecret: $0.mintedSecret)
        }
    }
}

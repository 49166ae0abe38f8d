import Foundation
import LayercastJSON
import LayercastSceneAPI
import Testing
@testable import LayercastWire

// protocol.md, "Server → client": welcome, event, error and pong as written on the wire.

@Suite("Server messages")
struct ServerMessageTests {
    @Test func welcome() {
        let scene = SceneInfo(id: "radar", title: "Pulsing radar", size: CGSize(width: 414, height: 736), interactions: ["tap"],
                              assets: [SceneAsset(id: "radar-item", url: "/assets/radar-item.svg", width: 44, height: 44)])
        // time 12.3456784 → 12.345678 (1e-6 s).
        #expect(ServerMessage.welcome(room: "lobby", scene: scene, role: "player", client: "c7", fps: 30, time: 12.3456784).serialized() == """
            {"type":"welcome","protocol":2,"room":"lobby","scene":"radar","title":"Pulsing radar","role":"player","client":"c7",\
            "size":{"width":414,"height":736},"fps":30,"interactions":["tap"],\
            "assets":{"radar-item":{"url":"/assets/radar-item.svg","width":44,"height":44}},"time":12.345678,\
            "features":["paths","shape","gradient","group","replicator","additive","imagetint","sparse","acks","births"]}
            """)
    }

    @Test func welcomePointsAResourceImageAtItsScenesDirectory() {
        // A resource image is served at /assets/{scene}/{path} (protocol.md, "Scene images"); a
        // URL image keeps its URL. Keys in order: "card-mark" < "logo".
        let scene = SceneInfo(id: "card-flip", title: "Card flip", size: CGSize(width: 414, height: 736),
                              assets: [SceneAsset(id: "card-mark", resource: "card-mark.svg", bundle: .main, width: 40, height: 40),
                                       SceneAsset(id: "logo", url: "/assets/logo.svg", width: 24, height: 24)])
        let assets = ServerMessage.welcome(room: "r", scene: scene, role: "player", client: "c1", fps: 30, time: 0)["assets"]
        #expect(assets?.serialized() == """
            {"card-mark":{"url":"/assets/card-flip/card-mark.svg","width":40,"height":40},\
            "logo":{"url":"/assets/logo.svg","width":24,"height":24}}
            """)
    }

    @Test func welcomeCarriesTheScenesWords() {
        let scene = SceneInfo(id: "shelf", title: "Shelf", size: CGSize(width: 100, height: 50), interactions: [],
                              summary: LocalizedText(en: "Tap a book.", zh: "点一本书。"),
                              events: [SceneEventWords(event: "open", when: ["finished": true], en: "《{book}》 opened {by}", zh: "《{book}》已打开{by}"),
                                       SceneEventWords(event: "open", en: "Opening", zh: "正在打开")],
                              terms: ["walden": LocalizedText(en: "Walden", zh: "瓦尔登湖"), "emma": LocalizedText(en: "Emma", zh: "爱玛")],
                              page: "shelf.html")
        // The words follow the fields the protocol had before; terms in key order.
        #expect(ServerMessage.welcome(room: "r", scene: scene, role: "spectator", client: "c1", fps: 30, time: 0).serialized() == """
            {"type":"welcome","protocol":2,"room":"r","scene":"shelf","title":"Shelf","role":"spectator","client":"c1",\
            "size":{"width":100,"height":50},"fps":30,"interactions":[],"assets":{},"time":0,\
            "features":["paths","shape","gradient","group","replicator","additive","imagetint","sparse","acks","births"],\
            "summary":{"en":"Tap a book.","zh":"点一本书。"},\
            "events":[{"event":"open","when":{"finished":true},"en":"《{book}》 opened {by}","zh":"《{book}》已打开{by}"},\
            {"event":"open","when":{},"en":"Opening","zh":"正在打开"}],\
            "terms":{"emma":{"en":"Emma","zh":"爱玛"},"walden":{"en":"Walden","zh":"瓦尔登湖"}},"page":"shelf.html"}
            """)
        // A scene without words sends none of these fields.
        #expect(SceneWords.fields(of: SceneInfo(id: "x", title: "X", size: .zero)).isEmpty)
    }

    @Test func event() {
        let select = SceneEvent(name: "select", data: ["item": "item-3"], client: "c7")
        #expect(ServerMessage.event(select).serialized() == #"{"type":"event","name":"select","by":"c7","data":{"item":"item-3"}}"#)
        let cleared = SceneEvent(name: "select", data: ["item": .null])
        #expect(ServerMessage.event(cleared).serialized() == #"{"type":"event","name":"select","data":{"item":null}}"#)
    }

    @Test func error() {
        let error = ProtocolError(.badField, "tap.x must be a finite number within ±100000 (it is missing)")
        #expect(ServerMessage.error(error).serialized() == """
            {"type":"error","code":"bad_field","message":"tap.x must be a finite number within ±100000 (it is missing)"}
            """)
        #expect(ErrorCode.webSocket.map(\.rawValue) == [
            "bad_json", "unknown_type", "bad_field", "too_large", "binary", "rate_limited", "forbidden",
            "unknown_scene", "bad_room", "bad_role", "server_full", "bad_token", "token_required", "bad_player",
            "ledger_unavailable", "host_limit", "not_ready",
        ])
        #expect(ErrorCode.api.map(\.rawValue) == [
            "bad_json", "bad_field", "too_large", "bad_room", "bad_player", "ledger_unavailable", "not_ready", "not_found",
            "unauthorized", "admin_disabled", "length_required", "bad_rain", "origin_timeout", "internal",
        ])
        #expect(ErrorCode.request.map(\.rawValue) == [
            "bad_method", "bad_request_line", "bad_header", "duplicate_content_length", "bad_content_length",
            "content_length_and_transfer_encoding", "duplicate_host", "bad_target", "subprotocol", "head_timeout",
            "head_too_large", "body_timeout",
        ])
        #expect(Set(ErrorCode.request).isDisjoint(with: ErrorCode.webSocket) && Set(ErrorCode.request).isDisjoint(with: ErrorCode.api))
    }

    @Test func pong() {
        #expect(ServerMessage.pong(id: 5, time: 12.5).serialized() == #"{"type":"pong","id":5,"time":12.5}"#)
        #expect(ServerMessage.pong(id: nil, time: 0.1234564).serialized() == #"{"type":"pong","time":0.123456}"#)
    }
}

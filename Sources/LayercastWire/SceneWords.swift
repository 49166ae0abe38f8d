import LayercastJSON
import LayercastSceneAPI

/// The fields that carry a scene's words to clients, in `welcome` and `GET /api/scenes`
/// (protocol.md, "Scene words"): `summary`, `events`, `terms` and `page`, each left out when the
/// scene gives none.
public enum SceneWords {
    /// `summary: {en, zh}`, `events: [{event, when, en, zh}]`, `terms: {value: {en, zh}}` (keys
    /// sorted) and `page`, for those the scene has.
    public static func fields(of info: SceneInfo) -> JSONObject {
        var object = JSONObject()
        if let summary = info.summary { object["summary"] = text(summary) }
        if !info.events.isEmpty {
            object["events"] = .array(info.events.map { words in
                ["event": .string(words.event), "when": .object(words.when),
                 "en": .string(words.text.en), "zh": .string(words.text.zh)]
            })
        }
        if !info.terms.isEmpty {
            object["terms"] = .object(JSONObject(info.terms.sorted { $0.key < $1.key }.map { ($0.key, text($0.value)) }))
        }
        if let page = info.page { object["page"] = .string(page) }
        return object
    }

    private static func text(_ text: LocalizedText) -> JSONValue {
        ["en": .string(text.en), "zh": .string(text.zh)]
    }
}

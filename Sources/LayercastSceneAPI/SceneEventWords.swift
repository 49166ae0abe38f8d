import LayercastJSON

/// How the pages put one kind of scene event into words: a template per language for the event
/// named `event` whose data has every field of `when` with that value (protocol.md, "Scene words").
///
/// In a template `{field}` is the event data's `field` (a value found in `SceneInfo.terms` shows
/// its words), `{field:percent}` a fraction as a whole percent ("56 %"), and `{by}` who caused the
/// event ("by you", "by a player"; empty, with the space before it, when nobody did). A template
/// whose fields are missing or null does not apply; the pages try the next one, then fall back to
/// the event's name and data.
public struct SceneEventWords: Sendable, Equatable {
    /// The name of the events these words are for.
    public var event: String
    /// Data fields the event must carry with exactly these values; empty matches every event named `event`.
    public var when: JSONObject
    /// The template in each language.
    public var text: LocalizedText

    /// Words for the events named `event` whose data matches `when`, with a template per language.
    public init(event: String, when: JSONObject = [:], en: String, zh: String) {
        self.event = event
        self.when = when
        self.text = LocalizedText(en: en, zh: zh)
    }
}

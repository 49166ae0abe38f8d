import Foundation

/// The catalogue entry of a scene: id, title, size in points, the input it takes, the images its
/// frames may name, and the words the pages show about it (what to do, what its events mean).
public struct SceneInfo: Sendable {
    /// The scene's id in URLs and the catalogue (`?scene=`): 1–32 of `A–Z a–z 0–9 _ -`.
    public var id: String
    /// The name the pages show for the scene.
    public var title: String
    /// The scene's size in points, the coordinate space its root layer and input use.
    public var size: CGSize
    /// Input kinds the scene reacts to: `tap`, `drag`. Without `drag`, the page sends a tap as the
    /// pointer goes down; with it, when the pointer comes up (a press may still become a drag).
    public var interactions: [String]
    /// The images the scene's layers may name, sent to clients in `welcome.assets`.
    public var assets: [SceneAsset]
    /// What a player does in the scene, one or two sentences; nil when the scene says nothing.
    public var summary: LocalizedText?
    /// The words for the scene's events, tried in order (`SceneEventWords`); empty when the pages
    /// should show events by name and data.
    public var events: [SceneEventWords]
    /// Words for values the events carry (e.g. a book's slug → its title), used where a template
    /// shows such a value.
    public var terms: [String: LocalizedText]
    /// The page under `public/` that shows the scene when it has its own (e.g. `rain.html`); nil
    /// for the generic `scene.html`.
    public var page: String?

    /// A scene that takes taps, shows no image and has no words unless the arguments say otherwise.
    public init(id: String, title: String, size: CGSize, interactions: [String] = ["tap"], assets: [SceneAsset] = [],
                summary: LocalizedText? = nil, events: [SceneEventWords] = [], terms: [String: LocalizedText] = [:],
                page: String? = nil) {
        self.id = id
        self.title = title
        self.size = size
        self.interactions = interactions
        self.assets = assets
        self.summary = summary
        self.events = events
        self.terms = terms
        self.page = page
    }
}

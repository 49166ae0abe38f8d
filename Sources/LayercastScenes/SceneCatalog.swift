import LayercastSceneAPI
/// The scenes this build ships, in the order the index page lists them.
public enum SceneCatalog {
    /// Every shipped scene type, in index-page order.
    public static var all: [any Scene.Type] {
        [RadarScene.self, RainScene.self, CubesScene.self, SnowScene.self, BookScene.self, RevealScene.self]
    }

    /// The scene type with this id, if any.
    public static func scene(id: String) -> (any Scene.Type)? {
        all.first { $0.info.id == id }
    }
}

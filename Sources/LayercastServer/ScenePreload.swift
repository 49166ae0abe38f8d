import LayercastHub

/// The `Link` header of a page asked for with `?scene=<id>`: its scene's images
/// (`/assets/{scene}/{file}`) as `rel=preload; as=image`, so the browser fetches them while the
/// page's modules load instead of a round trip after the `welcome` names them.
enum ScenePreload {
    /// At most this many images are announced (a scene ships a handful).
    static let limit = 16

    /// The header's value for an HTML page of type `type` asked for with `scene` as its `scene`
    /// query; nil when the page is not HTML or the scene is unknown or ships no image.
    static func link(scene: String?, type: String, in scenes: SceneRegistry) -> String? {
        guard type.hasPrefix("text/html"), let scene, let files = scenes.assetFiles[scene], !files.isEmpty else { return nil }
        return files.keys.sorted().prefix(limit).map { "</assets/\(scene)/\($0)>; rel=preload; as=image" }.joined(separator: ", ")
    }
}

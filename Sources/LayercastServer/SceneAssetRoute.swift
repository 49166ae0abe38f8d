import LayercastHub

/// `GET /assets/{scene}/{path}`: an image a registered scene ships as a resource
/// (docs/protocol.md, "Scene images"). Any other path under `/assets/` is a file of `public/`.
enum SceneAssetRoute {
    /// What a path names.
    enum Target: Equatable {
        /// The scene's image file, with its Content-Type.
        case file(SceneAssetFile, type: String)
        /// A registered scene's directory with no such image: 404.
        case missing
    }

    /// How long a browser or proxy may reuse an image without asking again: an hour. Its URL
    /// stays the same when a new version of the service ships other bytes, so not for longer;
    /// after that it asks with `If-None-Match` and gets a 304 while the bytes are unchanged.
    static let cacheControl = "public, max-age=3600"

    /// The target of the decoded request path `path`, or nil when it is not under the
    /// `/assets/` directory of a scene in `scenes` (a file of `public/`, then).
    static func target(of path: String, in scenes: SceneRegistry) -> Target? {
        guard path.hasPrefix("/assets/") else { return nil }
        let rest = path.dropFirst("/assets/".count)
        guard let slash = rest.firstIndex(of: "/") else { return earlier(String(rest), in: scenes) }
        let scene = String(rest[..<slash]), file = String(rest[rest.index(after: slash)...])
        guard scenes.scene(id: scene) != nil else { return nil }
        guard let asset = scenes.assetFile(scene: scene, path: file) else { return .missing }
        return .file(asset, type: StaticFiles.contentType(for: file))
    }

    /// An image's URL before scenes shipped their own (`/assets/{file}`, when they lay in
    /// `public/assets/`): the file of that path of the first scene, by id, that ships one; nil
    /// (a file of `public/`) when none does. Pages and embeds written against those URLs keep working.
    private static func earlier(_ file: String, in scenes: SceneRegistry) -> Target? {
        for id in scenes.assetFiles.keys.sorted() {
            if let asset = scenes.assetFile(scene: id, path: file) { return .file(asset, type: StaticFiles.contentType(for: file)) }
        }
        return nil
    }
}

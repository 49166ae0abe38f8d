import Foundation

/// An image a scene shows: the id its layers' `contents` name, where its bytes come from, and
/// its natural size in points.
///
/// ```swift
/// SceneAsset(id: "card-back", resource: "card-back.svg", bundle: .module, width: 200, height: 200)
/// ```
public struct SceneAsset: Sendable, Equatable {
    /// Where an image's bytes come from.
    public enum Source: Sendable, Equatable {
        /// A file of a resource bundle (the scene module's `Bundle.module`) at `path` inside it:
        /// read once when the service starts and served at `/assets/{scene}/{path}`.
        case resource(path: String, bundle: Bundle)
        /// A URL the page loads as given, relative to the server (e.g. a file under `public/`)
        /// or absolute; the service does not read it.
        case url(String)
    }

    /// The id a layer's `contents` names (`CGImage(named:)`), unique among the scene's assets.
    public var id: String
    /// Where the image's bytes come from.
    public var source: Source
    /// The natural width in points.
    public var width: CGFloat
    /// The natural height in points.
    public var height: CGFloat

    /// The image at `url`, which the page loads as given (the service serves it only when it is
    /// a file under `public/`).
    public init(id: String, url: String, width: CGFloat, height: CGFloat) {
        self.init(id: id, source: .url(url), width: width, height: height)
    }

    /// The image in the file `resource` of `bundle` (a path inside it, e.g. `"card-back.svg"`
    /// for a file the target's `resources: [.process("Resources")]` copies): the service reads
    /// it at start and serves it at `/assets/{scene id}/{resource}`.
    public init(id: String, resource: String, bundle: Bundle, width: CGFloat, height: CGFloat) {
        self.init(id: id, source: .resource(path: resource, bundle: bundle), width: width, height: height)
    }

    /// The image from `source`.
    public init(id: String, source: Source, width: CGFloat, height: CGFloat) {
        self.id = id
        self.source = source
        self.width = width
        self.height = height
    }

    /// The URL `welcome.assets` gives for this image of the scene `sceneID`: the declared URL,
    /// or `/assets/{sceneID}/{path}` for a resource.
    public func url(scene sceneID: String) -> String {
        switch source {
        case .url(let url): url
        case .resource(let path, _): "/assets/\(sceneID)/\(path)"
        }
    }
}

import Foundation

/// The catalogue entry of a scene: id, title, size in points, the input it takes and the
/// images its frames may name.
public struct SceneInfo: Sendable {
    public var id: String
    public var title: String
    public var size: CGSize
    /// Input kinds the scene reacts to: `tap`, `drag`.
    public var interactions: [String]
    public var assets: [SceneAsset]

    /// A scene that takes taps and shows no image unless `interactions` and `assets` say otherwise.
    public init(id: String, title: String, size: CGSize, interactions: [String] = ["tap"], assets: [SceneAsset] = []) {
        self.id = id
        self.title = title
        self.size = size
        self.interactions = interactions
        self.assets = assets
    }
}

/// An image a scene shows: the id its layers' `contents` use, the file under `public/` and the
/// natural size in points.
public struct SceneAsset: Sendable, Equatable {
    public var id: String
    public var url: String
    public var width: CGFloat
    public var height: CGFloat

    public init(id: String, url: String, width: CGFloat, height: CGFloat) {
        self.id = id
        self.url = url
        self.width = width
        self.height = height
    }
}

import Foundation

/// A reference to an image asset by id with its natural size in points; the server never decodes
/// pixels, clients draw the asset. Stands in for the `CGImage` a layer's `contents` holds on iOS.
public struct CGImage: Hashable, Sendable {
    /// The id of the image asset clients draw (a `SceneAsset`'s id).
    public var name: String
    /// The natural width in points; 0 when unknown.
    public var width: CGFloat
    /// The natural height in points; 0 when unknown.
    public var height: CGFloat

    /// A reference to the asset `name`, with its natural size in points.
    public init(named name: String, width: CGFloat = 0, height: CGFloat = 0) {
        self.name = name
        self.width = width
        self.height = height
    }

    /// The natural size in points, from `width` and `height`.
    public var size: CGSize { CGSize(width: width, height: height) }
}

import Foundation

/// A reference to an image asset by id with its natural size in points; the server never decodes
/// pixels, clients draw the asset. Stands in for the `CGImage` a layer's `contents` holds on iOS.
public struct CGImage: Hashable, Sendable {
    public var name: String
    public var width: CGFloat
    public var height: CGFloat

    public init(named name: String, width: CGFloat = 0, height: CGFloat = 0) {
        self.name = name
        self.width = width
        self.height = height
    }

    public var size: CGSize { CGSize(width: width, height: height) }
}

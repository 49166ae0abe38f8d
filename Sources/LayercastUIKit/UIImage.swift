import Foundation
import LayercastEngine
import LayercastSceneAPI

/// An image of the scene's assets, as `UIImage(named:)`: a reference the browser draws, with the
/// natural size the asset declares. Register a scene's assets once (`UIImage.register`).
public final class UIImage: Hashable, @unchecked Sendable {
    /// The image as a layer's `contents` takes it.
    public let cgImage: CGImage?

    /// The natural size in points, as `SceneAsset` declares it.
    public var size: CGSize { cgImage?.size ?? .zero }

    /// The image of `cgImage`.
    public init(cgImage: CGImage) { self.cgImage = cgImage }

    /// The registered asset named `name`; nil, with a `UIKitErrors` report, when no registered
    /// asset has that id (UIKit returns nil for a missing image too).
    public convenience init?(named name: String) {
        guard let asset = UIImage.catalog.asset(named: name) else {
            UIKitErrors.shared.record("UIImage(named:)", "no registered scene asset named '\(name)'; call UIImage.register(info.assets) first")
            return nil
        }
        self.init(cgImage: CGImage(named: asset.id, width: asset.width, height: asset.height))
    }

    /// Makes `assets` findable by `UIImage(named:)`; call it with your scene's `info.assets`.
    public static func register(_ assets: [SceneAsset]) { catalog.add(assets) }

    public static func == (lhs: UIImage, rhs: UIImage) -> Bool { lhs.cgImage == rhs.cgImage }
    public func hash(into hasher: inout Hasher) { hasher.combine(cgImage) }

    private static let catalog = UIImageCatalog()
}

/// The registered assets by id, shared by every scene of the process.
final class UIImageCatalog: @unchecked Sendable {
    private let lock = NSLock()
    private var assets: [String: SceneAsset] = [:]

    func add(_ list: [SceneAsset]) { lock.withLock { for asset in list { assets[asset.id] = asset } } }
    func asset(named name: String) -> SceneAsset? { lock.withLock { assets[name] } }
}

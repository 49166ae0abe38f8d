import Foundation
import LayercastSceneAPI

/// An image of a scene as `welcome.assets` gives it: id, URL and natural size.
struct AssetRow: Equatable, CustomStringConvertible {
    let id: String
    let url: String
    let width: CGFloat
    let height: CGFloat

    var description: String { "\(id) \(url) \(width)×\(height)" }

    /// The rows of `info`'s images, in order.
    static func rows(_ info: SceneInfo) -> [AssetRow] {
        info.assets.map { AssetRow(id: $0.id, url: $0.url(scene: info.id), width: $0.width, height: $0.height) }
    }

    /// The ids of `info`'s images that are not a resource file present in its bundle.
    static func notShipped(_ info: SceneInfo) -> [String] {
        info.assets.filter { asset in
            guard case .resource(let path, let bundle) = asset.source, let directory = bundle.resourceURL else { return true }
            return !FileManager.default.isReadableFile(atPath: directory.appendingPathComponent(path).path)
        }.map(\.id)
    }
}

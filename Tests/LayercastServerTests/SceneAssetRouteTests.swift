import Foundation
import LayercastHub
@testable import LayercastServer
import LayercastSceneAPI
import LayercastScenes
import Testing

/// `/assets/{scene}/{path}` names a registered scene's image; any other path under `/assets/` is
/// left to `public/`; `If-None-Match` is compared weakly with the image's ETag.
@Suite struct SceneAssetRouteTests {
    let scenes = try! SceneRegistry(SceneCatalog.all)

    @Test func aSceneImageIsFoundWithItsType() throws {
        let file = try #require(scenes.assetFile(scene: "radar", path: "radar-item.svg"))
        #expect(SceneAssetRoute.target(of: "/assets/radar/radar-item.svg", in: scenes) == .file(file, type: "image/svg+xml"))
        #expect(SceneAssetRoute.cacheControl == "public, max-age=3600")
    }

    @Test func anUnknownImageOfAKnownSceneIsMissing() {
        for path in ["/assets/radar/nope.svg", "/assets/radar/", "/assets/radar/../radar/radar-item.svg",
                     "/assets/radar/RADAR-ITEM.svg", "/assets/rain/radar-item.svg", "/assets/cubes/x.svg"] {
            #expect(SceneAssetRoute.target(of: path, in: scenes) == .missing, "\(path)")
        }
    }

    @Test func otherPathsAreLeftToPublic() {
        for path in ["/assets/logo.svg", "/assets/radar", "/assets/nosuchscene/radar-item.svg", "/radar/radar-item.svg",
                     "/assetsradar/radar-item.svg", "/", "/assets/"] {
            #expect(SceneAssetRoute.target(of: path, in: scenes) == nil, "\(path)")
        }
    }

    @Test func anImagesEarlierFlatURLStillFindsIt() throws {
        // Before scenes shipped their images they lay in public/assets/, at /assets/{file}.
        let radar = try #require(scenes.assetFile(scene: "radar", path: "radar-item.svg"))
        #expect(SceneAssetRoute.target(of: "/assets/radar-item.svg", in: scenes) == .file(radar, type: "image/svg+xml"))
        let petal = try #require(scenes.assetFile(scene: "snow", path: "petal.svg"))
        #expect(SceneAssetRoute.target(of: "/assets/petal.svg", in: scenes) == .file(petal, type: "image/svg+xml"))
    }

    @Test func ifNoneMatchNamesTheTagOrStar() {
        let etag = "\"ba7816bf8f01cfea414140de5dae2223\""
        #expect(IfNoneMatch.matches(etag, etag: etag))
        #expect(IfNoneMatch.matches("W/" + etag, etag: etag))
        #expect(IfNoneMatch.matches("\"other\", \(etag)", etag: etag))
        #expect(IfNoneMatch.matches("*", etag: etag))
        #expect(!IfNoneMatch.matches(nil, etag: etag))
        #expect(!IfNoneMatch.matches("\"other\"", etag: etag))
        #expect(!IfNoneMatch.matches("ba7816bf8f01cfea414140de5dae2223", etag: etag))  // unquoted: not a tag
        #expect(!IfNoneMatch.matches("", etag: etag))
    }
}

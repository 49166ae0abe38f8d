import LayercastHub
@testable import LayercastServer
import LayercastSceneAPI
import LayercastScenes
import Testing

/// A page asked for with `?scene=<id>` announces that scene's images; nothing else does.
@Suite struct ScenePreloadTests {
    let scenes = try! SceneRegistry(SceneCatalog.all)

    @Test func aPageOfASceneWithImagesPreloadsThem() {
        #expect(ScenePreload.link(scene: "radar", type: "text/html; charset=utf-8", in: scenes)
            == "</assets/radar/radar-item.svg>; rel=preload; as=image")
        let book = ScenePreload.link(scene: "book", type: "text/html; charset=utf-8", in: scenes) ?? ""
        #expect(book.split(separator: ",").count == scenes.assetFiles["book"]?.count)
        #expect(book.hasPrefix("</assets/book/book-dracula.svg>; rel=preload; as=image, </assets/book/"))
    }

    @Test func otherRequestsGetNoLink() {
        for (scene, type) in [(nil, "text/html; charset=utf-8"), ("nosuchscene", "text/html; charset=utf-8"),
                              ("radar", "text/javascript; charset=utf-8"), ("radar", "text/css; charset=utf-8"),
                              ("</x>", "text/html; charset=utf-8")] as [(String?, String)] {
            #expect(ScenePreload.link(scene: scene, type: type, in: scenes) == nil, "\(scene ?? "nil") \(type)")
        }
    }
}

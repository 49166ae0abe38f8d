@testable import LayercastHub
import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastScenes
import Testing

/// A scene's images shipped as resources are read once when the scenes are registered; a missing
/// file, a malformed path, an oversize file or a repeated id refuses the registry, naming them.
@Suite struct SceneAssetFileTests {
    /// A resource bundle of our own: `a.svg` ("abc"), `sub/b.png` (4 bytes), `big.svg` (one byte
    /// over the limit), and a directory `dir.svg`.
    static let bundle: Bundle = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layercast-assets-\(getpid())")
        try? FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: directory.appendingPathComponent("dir.svg"), withIntermediateDirectories: true)
        try? Data("abc".utf8).write(to: directory.appendingPathComponent("a.svg"))
        try? Data([0x89, 0x50, 0x4E, 0x47]).write(to: directory.appendingPathComponent("sub/b.png"))
        try? Data(count: SceneAssetFile.maxBytes + 1).write(to: directory.appendingPathComponent("big.svg"))
        return Bundle(path: directory.path)!
    }()

    /// A scene showing `assets`.
    class Pictured: Scene {
        class var assets: [SceneAsset] { [] }
        class var info: SceneInfo { SceneInfo(id: "pictured", title: "Pictured", size: .zero, assets: assets) }
        let layer = CALayer()
        required init(seed: UInt64) {}
        func tap(_ hit: CALayer?, at point: CGPoint, time: CFTimeInterval, by tapper: Tapper) -> TapOutcome { .ignored }
        func takeEvents() -> [SceneEvent] { [] }
    }
    static func resource(_ id: String, _ path: String) -> SceneAsset {
        SceneAsset(id: id, resource: path, bundle: bundle, width: 10, height: 10)
    }
    final class Good: Pictured {
        override class var assets: [SceneAsset] {
            [resource("a", "a.svg"), resource("a-again", "a.svg"), resource("b", "sub/b.png"),
             SceneAsset(id: "page", url: "/assets/logo.svg", width: 1, height: 1)]
        }
    }
    final class Gone: Pictured { override class var assets: [SceneAsset] { [resource("a", "a.svg"), resource("gone", "gone.svg")] } }
    final class Big: Pictured { override class var assets: [SceneAsset] { [resource("big", "big.svg")] } }
    final class Folder: Pictured { override class var assets: [SceneAsset] { [resource("dir", "dir.svg")] } }
    final class Twice: Pictured { override class var assets: [SceneAsset] { [resource("a", "a.svg"), resource("a", "sub/b.png")] } }
    final class Escaping: Pictured { override class var assets: [SceneAsset] { [resource("up", "../a.svg")] } }

    @Test func resourceImagesAreReadWithTheirETag() throws {
        let registry = try SceneRegistry([Good.self])
        // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad (FIPS 180-2, B.1)
        #expect(registry.assetFile(scene: "pictured", path: "a.svg") == SceneAssetFile(bytes: Array("abc".utf8)))
        #expect(registry.assetFile(scene: "pictured", path: "a.svg")?.etag == "\"ba7816bf8f01cfea414140de5dae2223\"")
        #expect(registry.assetFile(scene: "pictured", path: "sub/b.png")?.bytes == [0x89, 0x50, 0x4E, 0x47])
        #expect(registry.assetFiles["pictured"]?.keys.sorted() == ["a.svg", "sub/b.png"])  // the URL image is not read
        #expect(registry.assetFile(scene: "pictured", path: "gone.svg") == nil)
        #expect(registry.assetFile(scene: "radar", path: "a.svg") == nil)
    }

    @Test func etagsArePinned() {
        // The first 16 bytes of SHA-256: of nothing (FIPS 180-4's empty-message digest), and of
        // 1000 bytes (i mod 251), more than one 64-byte block, as Python's hashlib gives them.
        #expect(SceneAssetFile(bytes: []).etag == "\"e3b0c44298fc1c149afbf4c8996fb924\"")
        #expect(SceneAssetFile(bytes: (0..<1000).map { UInt8($0 % 251) }).etag == "\"4e4c294b331f7a2099a379bec34b9f9f\"")
    }

    @Test func shippedScenesImagesAreTheFilesInTheirResources() throws {
        let registry = try SceneRegistry(SceneCatalog.all)
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/LayercastScenes/Resources")
        let expected: [String: [String]] = [
            "radar": ["radar-item.svg"], "rain": ["rp-no.svg", "rp-normal.svg", "rp-yes.svg"],
            "book": ["book-dracula.svg", "book-emma.svg", "book-frankenstein.svg", "book-moby-dick.svg",
                     "book-pride-and-prejudice.svg", "book-walden.svg"],
            "snow": ["petal.svg", "snowflake-star.svg", "snowflake.svg"],
        ]
        #expect(registry.assetFiles.mapValues { $0.keys.sorted() } == expected)
        for (scene, files) in expected {
            for file in files {
                let bytes = try Data(contentsOf: resources.appendingPathComponent(file))
                #expect(registry.assetFile(scene: scene, path: file)?.bytes == Array(bytes), "\(scene)/\(file)")
            }
        }
    }

    @Test func aMissingOversizeOrFolderFileRefusesTheRegistryNamingIt() {
        let directory = Self.bundle.resourceURL!.path
        #expect(throws: SceneRegistryError.unreadableAsset(scene: "pictured", asset: "gone", file: directory + "/gone.svg", reason: "no such file")) {
            try SceneRegistry([RadarScene.self, Gone.self])
        }
        #expect(throws: SceneRegistryError.unreadableAsset(scene: "pictured", asset: "big", file: directory + "/big.svg",
                                                           reason: "1048577 bytes, more than the 1048576 an image may have")) {
            try SceneRegistry([Big.self])
        }
        #expect(throws: SceneRegistryError.unreadableAsset(scene: "pictured", asset: "dir", file: directory + "/dir.svg", reason: "a directory, not a file")) {
            try SceneRegistry([Folder.self])
        }
        let error = SceneRegistryError.unreadableAsset(scene: "pictured", asset: "gone", file: "/x/gone.svg", reason: "no such file")
        #expect(error.description == "the scene \"pictured\" cannot serve its image \"gone\": /x/gone.svg: no such file")
    }

    @Test func aRepeatedIDOrMalformedPathIsRefused() {
        #expect(throws: SceneRegistryError.duplicateAsset(scene: "pictured", "a")) { try SceneRegistry([Twice.self]) }
        #expect(throws: SceneRegistryError.badAssetPath(scene: "pictured", asset: "up", "../a.svg")) { try SceneRegistry([Escaping.self]) }
        for bad in ["", "/a.svg", "a//b.svg", "a/", ".hidden", "sub/.b", "a b.svg", "a%2fb.svg", "é.svg", String(repeating: "a", count: 201)] {
            #expect(!SceneAssetFile.isValidPath(bad), "\(bad)")
        }
        for good in ["a.svg", "sub/b.png", "Card_Back-2.svg", "a..b", String(repeating: "a", count: 200)] {
            #expect(SceneAssetFile.isValidPath(good), "\(good)")
        }
    }
}

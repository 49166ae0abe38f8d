import Foundation
import LayercastSceneAPI
import LayercastScenes
import Testing

/// The hub, the transport and the cluster know no scene by name: every scene-specific behaviour is its
/// controller's. Nor do the scene API and the wire hold a shipped scene's word.
@Suite struct LayeringTests {
    /// The words no identifier of the hub, the transport or the cluster may hold: the shipped
    /// scenes' and their things'.
    static let sceneWords: Set<String> = ["rain", "rains", "snow", "snows", "book", "books", "cube", "cubes", "radar", "radars"]

    /// The identifiers of `source` holding one of `sceneWords`.
    static func sceneIdentifiers(in source: String) -> [String] {
        SwiftIdentifiers.identifiers(in: source).filter { !sceneWords.isDisjoint(with: SwiftIdentifiers.words(of: $0)) }
    }

    @Test func noHubOrTransportIdentifierNamesAScene() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources")
        var checked = 0
        for module in ["LayercastHub", "LayercastServer", "LayercastCluster", "LayercastSceneAPI", "LayercastWire"] {
            let folder = sources.appendingPathComponent(module)
            // Every file under the module's folder, its subfolders too (the cluster's Wire/).
            for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                #expect(Self.sceneIdentifiers(in: text) == [], "\(module)/\(file)")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// The check finds what is planted in code, in an interpolation and in a type, and nothing in
    /// comments, in string text or inside another word.
    @Test func theIdentifierCheckFindsAPlantedName() {
        let planted = #"""
            // a rain in a comment, /* a snow */ and /* nested /* book */ cubes */
            let badRain = radar_count + drain + constraint + trainee
            let text = "rain \(snowfall(RainScene.self)) \("book" + bookmark) and \"cubes\""
            let block = """
                radar \(CubeView.count) rain
                """
            let raw = #"rain "snow" \(radar)"#
            struct URLBooks {}
            """#
        #expect(Self.sceneIdentifiers(in: planted) == ["CubeView", "RainScene", "URLBooks", "badRain", "radar_count"])
        #expect(SwiftIdentifiers.words(of: "badRainID") == ["bad", "rain", "id"])
        #expect(SwiftIdentifiers.words(of: "URLBooks") == ["url", "books"])
        #expect(SwiftIdentifiers.words(of: "drainQueue") == ["drain", "queue"])
    }

    @Test func noHubOrTransportFileNamesAConcreteScene() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources")
        // Nor the catalogue of shipped scenes: they read the `SceneRegistry` they were given.
        let names = SceneCatalog.all.map { String(describing: $0) } + ["RainController", "SnowController", "SceneCatalog"]
        #expect(names.contains("RainScene") && names.count == SceneCatalog.all.count + 3)
        var checked = 0
        for module in ["LayercastHub", "LayercastServer", "LayercastCluster"] {
            let folder = sources.appendingPathComponent(module)
            for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for name in names {
                    #expect(!text.contains(name), "\(module)/\(file) names \(name)")
                }
                // Nor do they depend on the shipped scenes' module (Package.swift).
                #expect(!text.contains("import LayercastScenes"), "\(module)/\(file) imports LayercastScenes")
                checked += 1
            }
        }
        #expect(checked > 20)  // both folders were read (21 hub files and 23 server files as of this writing)
    }
}

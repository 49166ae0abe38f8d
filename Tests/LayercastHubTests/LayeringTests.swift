import Foundation
import LayercastScenes
import Testing

/// The hub, the transport and the cluster know no scene by name: every scene-specific behaviour is its controller's.
@Suite struct LayeringTests {
    @Test func noHubOrTransportFileNamesAConcreteScene() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources")
        // Nor the catalogue of shipped scenes: they read the `SceneRegistry` they were given.
        let names = SceneCatalog.all.map { String(describing: $0) } + ["RainController", "SnowController", "SceneCatalog"]
        #expect(names.contains("RainScene") && names.count == SceneCatalog.all.count + 3)
        var checked = 0
        for module in ["LayercastHub", "LayercastServer", "LayercastCluster"] {
            let folder = sources.appendingPathComponent(module)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for name in names {
                    #expect(!text.contains(name), "\(module)/\(file) names \(name)")
                }
                checked += 1
            }
        }
        #expect(checked > 20)  // both folders were read (21 hub files and 23 server files as of this writing)
    }
}

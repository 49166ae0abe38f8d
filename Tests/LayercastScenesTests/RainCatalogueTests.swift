import Foundation
import LayercastEngine
import LayercastSceneAPI
import LayercastSceneTesting
import Testing
@testable import LayercastScenes

// The rain's catalogue entry and its tree before any rain (RainTestSupport.swift: the harness).
@Suite("Rain: catalogue and tree")
struct RainCatalogueTests {
    @Test func infoAndCatalogue() {
        let info = RainScene.info
        #expect(info.id == "rain")
        #expect(info.title == "Red-packet rain")
        #expect(info.size == CGSize(width: 414, height: 736))
        #expect(info.interactions == ["tap"])
        #expect(AssetRow.rows(info) == [
            AssetRow(id: "rp_normal", url: "/assets/rain/rp-normal.svg", width: 44, height: 62.5),
            AssetRow(id: "rp_yes", url: "/assets/rain/rp-yes.svg", width: 63.5, height: 74),
            AssetRow(id: "rp_no", url: "/assets/rain/rp-no.svg", width: 45.5, height: 76.5),
        ])
        #expect(AssetRow.notShipped(info) == [])
        #expect(SceneCatalog.all.map { $0.info.id }.prefix(2) == ["radar", "rain"])   // later scenes are appended
        #expect(SceneCatalog.scene(id: "rain") == RainScene.self)
    }

    @Test func idleTree() {
        let h = RainHarness()
        #expect(h.scene.phase == .idle && h.scene.rain == nil)
        #expect(h.scene.configuration == RainScene.Configuration(size: CGSize(width: 414, height: 736), resultsDuration: 10))
        #expect(h.scene.layer.frame == sceneRect)
        #expect((h.scene.layer.sublayers ?? []).map(\.name) == ["packets", "labels"])
        #expect(h.scene.packets.frame == sceneRect && h.scene.labels.frame == sceneRect)
        // Nothing happens until a rain starts.
        h.run(to: 100)
        #expect(h.takeEvents().isEmpty && h.livePackets.isEmpty && h.scene.phase == .idle)
        #expect(h.decide(CGPoint(x: 100, y: 100), at: 100) == .closed)
        // A smaller room: the root and containers follow the configured size.
        let small = RainHarness(configuration: .init(size: CGSize(width: 320, height: 480), resultsDuration: 3))
        #expect(small.scene.layer.frame == CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(small.scene.packets.frame == CGRect(x: 0, y: 0, width: 320, height: 480))
    }
}

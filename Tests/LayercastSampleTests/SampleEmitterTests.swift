import Foundation
import Testing
@testable import LayercastJSON
@testable import LayercastSample

/// Emitter layers in `layercast sample` (docs/sample.md): their input keys, the `particles` of
/// their output, and the limits that keep an evaluation small.
@Suite struct SampleEmitterTests {
    /// A root emitter layer with one cell (by default visible, 4/s, 10 s lives), sampled at `times`.
    private func document(cell: String = #"{"name": "flake", "birthRate": 4, "lifetime": 10, "contents": "star"}"#,
                          layer: String = "", times: String = "[1]") -> String {
        """
        {"root": {"name": "e", "type": "emitter", "bounds": [0, 0, 100, 100]\(layer), "emitterCells": [\(cell)]},
         "times": \(times)}
        """
    }

    /// The named layer's entry at each sample.
    private func entries(_ document: String, layer name: String = "e") throws -> [JSONObject] {
        let samples = try #require(try SampleRunner.run(document)["samples"]?.arrayValue)
        return try samples.map { try #require($0["layers"]?[name]?.objectValue) }
    }

    private func error(for document: String) -> SampleError? {
        do {
            _ = try SampleRunner.run(document)
            return nil
        } catch {
            return error
        }
    }

    @Test func particlesFollowTheLayerEntryOldestFirst() throws {
        // Births every 1/4 s from local time 0: at t = 1 those of 0.25, 0.5, 0.75 and 1.
        let entry = try #require(try entries(document()).first)
        #expect(entry.keys == ["position", "bounds", "anchorPoint", "opacity", "zPosition", "transform",
                               "backgroundColor", "hidden", "cornerRadius", "borderWidth", "particles"])
        let particles = try #require(entry["particles"]?.arrayValue)
        #expect(particles.map { $0["birthTime"]?.doubleValue } == [0.25, 0.5, 0.75, 1])
        #expect(particles.map { $0["age"]?.doubleValue } == [0.75, 0.5, 0.25, 0])
        let first = try #require(particles.first?.objectValue)
        #expect(first.keys == ["id", "cellName", "cellPath", "contents", "position", "zPosition", "scale", "rotation",
                               "color", "birthTime", "age", "lifetime"])
        #expect(first["cellName"] == .string("flake") && first["contents"] == .string("star"))
        #expect(first["cellPath"] == [.number(0)] && first["lifetime"] == .number(10))
        // Ids are 64-bit: written as decimal strings, distinct.
        let ids = particles.compactMap { $0["id"]?.stringValue.flatMap { UInt64($0) } }
        #expect(ids.count == 4 && Set(ids).count == 4)
    }

    @Test func snowExampleShowsBothDemos() throws {
        // examples/snow-demos.json, the seed's two snow demos. At t = 3 demo 1 (10/s) shows its births
        // of 0.1, 0.2, …, 3. Demo 2's containers (10/s, 0.35 s) emit snow at 2/s each, evenly phased:
        // Σ 2·min(0.35, 3 − k/10) over k = 1…30 = 26 × 0.7 + 2 × (0.3 + 0.2 + 0.1) = 19.4 flakes.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../examples/snow-demos.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let flakes = try #require(try entries(text, layer: "flakeLayer")[1]["particles"]?.arrayValue)
        #expect(flakes.count == 30 && flakes.last?["birthTime"]?.doubleValue == 3)
        let snow = try #require(try entries(text, layer: "containerLayer")[1]["particles"]?.arrayValue)
        #expect(abs(Double(snow.count) - 19.4) <= 2)
        #expect(snow.allSatisfy { $0["cellPath"] == [.number(0), .number(0)] && $0["cellName"] == .string("snow-snowflake") })
        #expect(snow.allSatisfy { $0["color"] == [.number(0.6), .number(0.658), .number(0.743), .number(1)] })
    }

    @Test func otherLayersHaveNoParticles() throws {
        let doc = """
        {"root": {"name": "r", "sublayers": [{"name": "e", "type": "emitter"}]}, "times": [0]}
        """
        #expect(try entries(doc, layer: "r")[0]["particles"] == nil)
        #expect(try entries(doc, layer: "e")[0]["particles"] == .array([]))
    }

    @Test func particlesAreAtTheLayersLocalTime() throws {
        // timeOffset 100: at media time 0 the layer is at local 100, where emission began long ago;
        // 4/s with 10 s lives: the 40 births in (90, 100].
        let entry = try #require(try entries(document(layer: ", \"timeOffset\": 100", times: "[0]")).first)
        let births = try #require(entry["particles"]?.arrayValue).compactMap { $0["birthTime"]?.doubleValue }
        #expect(births.count == 40 && births.first == 90.25 && births.last == 100)
    }

    @Test func floatPropertiesAreRoundedToSinglePrecision() throws {
        // lifetime 0.1 is the Float 0.100000001490116…, so the particle born at 1 is still alive
        // at 1.1, where its age is 0.10000000000000009 (over a double 0.1).
        let cell = #"{"birthRate": 1, "lifetime": 0.1, "contents": "star"}"#
        let entry = try #require(try entries(document(cell: cell, times: "[1.1]")).first)
        let particles = try #require(entry["particles"]?.arrayValue)
        #expect(particles.map { $0["birthTime"]?.doubleValue } == [1])
        #expect(particles.map { $0["lifetime"]?.doubleValue } == [Double(Float(0.1))])
    }

    @Test(arguments: [
        ("{\"root\": {\"emitterShape\": \"line\"}}", "root.emitterShape"),
        ("{\"root\": {\"type\": \"emitter\", \"emitterMode\": \"edges\"}}", "root.emitterMode"),
        ("{\"root\": {\"type\": \"emitter\", \"seed\": -1}}", "root.seed"),
        ("{\"root\": {\"type\": \"emitter\", \"maxParticles\": 1000001}}", "root.maxParticles"),
        ("{\"root\": {\"type\": \"emitter\", \"spin\": 1e39}}", "root.spin"),
        ("{\"root\": {\"type\": \"emitter\", \"emitterCells\": [{\"emitterCells\": [{\"lifetme\": 1}]}]}}",
         "root.emitterCells[0].emitterCells[0].lifetme"),
        ("{\"root\": {\"type\": \"emitter\", \"emitterCells\": [{\"color\": [1, 1]}]}}", "root.emitterCells[0].color"),
        ("{\"root\": {\"type\": \"emitter\", \"birthRate\": 1e3, \"emitterCells\": [{\"birthRate\": 1e4}]}}",
         "root.emitterCells[0].birthRate"),
        ("{\"root\": {\"type\": \"emitter\", \"emitterCells\": [{\"birthRate\": 1e3, \"lifetime\": 600}]}, \"times\": [0, 1]}",
         "root.emitterCells"),
        ("{\"root\": {\"sublayers\": [{\"type\": \"emitter\", \"beginTime\": -2e9}]}}", "root.sublayers[0]"),
        ("{\"root\": {\"type\": \"emitter\"}, \"times\": [0, 1e300]}", "times[1]"),
    ])
    func badEmittersNameTheOffendingPath(document: String, path: String) {
        let e = error(for: document)
        #expect(e?.path == path, "got \(String(describing: e))")
    }

    @Test func birthsOverTheLimitAreCountedOverAllTimes() {
        // 1000/s for 600 s lives: 600 001 births per sampled time, within the limit once, not twice.
        let cells = "\"emitterCells\": [{\"birthRate\": 1e3, \"lifetime\": 600}]"
        #expect(error(for: "{\"root\": {\"type\": \"emitter\", \(cells)}, \"times\": [0]}") == nil)
        #expect(error(for: "{\"root\": {\"type\": \"emitter\", \(cells)}, \"times\": [0, 0]}")?.path == "root.emitterCells")
    }
}

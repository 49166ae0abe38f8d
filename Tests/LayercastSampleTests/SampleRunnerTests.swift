import Foundation
import Testing
@testable import LayercastJSON
@testable import LayercastSample

@Suite struct SampleRunnerTests {
    /// Runs a document and returns the named layer's values at the first sample.
    private func layer(_ name: String, in document: String, sample index: Int = 0) throws -> JSONObject {
        let output = try SampleRunner.run(document)
        let samples = try #require(output["samples"]?.arrayValue)
        return try #require(samples[index]["layers"]?[name]?.objectValue)
    }

    private func error(for document: String) -> SampleError? {
        do {
            _ = try SampleRunner.run(document)
            return nil
        } catch {
            return error
        }
    }

    @Test func opacityHalfwayThroughALinearBasicAnimation() throws {
        // 0 → 1 over 2 s, linear (nil timing function): at t = 1 the fraction is 1/2.
        let doc = """
        {"root": {"name": "r", "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 2}]},
         "times": [1]}
        """
        let values = try layer("r", in: doc)
        #expect(abs((values["opacity"]?.doubleValue ?? -1) - 0.5) < 1e-6)
    }

    @Test func timesBeforeZeroShowTheModel() throws {
        // Animations are added at media time 0 (docs/sample.md): at −1 the backwards fill of an
        // animation beginning at 1 does not exist yet, at 0.5 it shows the from value.
        let doc = """
        {"root": {"name": "r", "opacity": 0.5, "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1,
          "fillMode": "backwards", "beginTime": 1}]}, "times": [-1, 0.5]}
        """
        #expect(try layer("r", in: doc, sample: 0)["opacity"]?.doubleValue == 0.5)
        #expect(try layer("r", in: doc, sample: 1)["opacity"]?.doubleValue == 0)
    }

    @Test func radarExamplePulseValues() throws {
        // examples/radar-pulse.json is the seed's pulse (docs/scenes.md §5). At t = 1, pulse0 is 1 s into
        // its 4 s group; the group's default curve (0.25, 0.1, 0.25, 1) maps 0.25 to ≈ 0.40851,
        // so scale = 1.5 × 0.40851 and opacity = 1 − 0.3 × (0.40851 / 0.5).
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../examples/radar-pulse.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let output = try SampleRunner.run(text)
        let t1 = try #require(output["samples"]?[1]?["layers"]?.objectValue)
        let f = 0.408512
        let m11 = try #require(t1["pulse0"]?["transform"]?[0]?.doubleValue)
        #expect(abs(m11 - 1.5 * f) < 1e-4)
        let opacity = try #require(t1["pulse0"]?["opacity"]?.doubleValue)
        #expect(abs(opacity - (1 - 0.3 * f / 0.5)) < 1e-4)
        // pulse3 begins at 2 s: backwards fill shows its first frame (scale 0, opacity 1).
        #expect(t1["pulse3"]?["transform"]?[0]?.doubleValue == 0)
        #expect(t1["pulse3"]?["opacity"]?.doubleValue == 1)
        // At t = 1 the centre of the radar hits pulse0 (scaled to ≈ 0.61): pulse3 has scale 0.
        let hits = try #require(output["hits"]?.arrayValue)
        #expect(hits[0]["layer"]?.stringValue == "pulse0")
    }

    @Test(arguments: [
        ("{\"root\": {", "root"),
        ("[1, 2", "input[1]"),
        ("{\"root\": {\"animations\": [{\"keyPath\": \"opacty\"}]}}", "root.animations[0].keyPath"),
        ("{\"root\": {\"animations\": [{\"keyPath\": \"position\", \"toValue\": [1, 2, 3]}]}}", "root.animations[0].toValue"),
        ("{\"root\": {\"sublayers\": [{}, {}, {}, {\"animations\": [{\"type\": \"keyframe\", \"keyPath\": \"opacity\", \"values\": [0, 1], \"keyTimes\": [0.6, 0.2]}]}]}}",
         "root.sublayers[3].animations[0].keyTimes"),
        ("{\"root\": {\"animations\": [{\"keyPath\": \"opacity\", \"duration\": -1}]}}", "root.animations[0].duration"),
        ("{\"root\": {\"position\": [1e400, 0]}}", "root.position[0]"),
        ("{\"root\": {\"animations\": [{\"keyPath\": \"opacity\", \"toValue\": 1e400}]}}", "root.animations[0].toValue"),
        ("{\"root\": {\"animations\": [{\"type\": \"bouncy\", \"keyPath\": \"opacity\"}]}}", "root.animations[0].type"),
        ("{\"root\": {\"animations\": [{\"type\": \"keyframe\", \"keyPath\": \"opacity\", \"calculationMode\": \"smooth\"}]}}",
         "root.animations[0].calculationMode"),
        ("{\"root\": {\"opactiy\": 1}}", "root.opactiy"),
        ("{\"root\": {\"animations\": [{\"type\": \"group\", \"animations\": [{\"keyPath\": \"opacity\", \"fillMode\": \"sideways\"}]}]}}",
         "root.animations[0].animations[0].fillMode"),
        ("{\"root\": {\"sublayers\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}}", "root.sublayers[1].name"),
        ("{\"root\": {\"animations\": [{\"type\": \"spring\", \"keyPath\": \"opacity\", \"mass\": -1}]}}", "root.animations[0].mass"),
    ])
    func badInputNamesTheOffendingPath(document: String, path: String) {
        let e = error(for: document)
        #expect(e?.path == path, "got \(String(describing: e))")
    }

    @Test func badInputMessageReadsAsDocumented() {
        let e = error(for: "{\"root\": {\"sublayers\": [{}, {}, {}, {\"animations\": [{\"type\": \"keyframe\", \"keyPath\": \"opacity\", \"values\": [0, 1], \"keyTimes\": [0.6, 0.2]}]}]}}")
        #expect(e?.description == "root.sublayers[3].animations[0].keyTimes: must be non-decreasing in 0…1")
    }

    @Test func framesAddTheServersFullFrameToEachSample() throws {
        // A front layer at zPosition 1 listed first: the frame draws the back one first, as the
        // hit test sees the front one on top; ids are kept from one sample's frame to the next.
        let doc = """
        {"root": {"name": "r", "bounds": [0, 0, 100, 100], "position": [50, 50], "sublayers": [
          {"name": "front", "bounds": [0, 0, 40, 40], "position": [50, 50], "zPosition": 1, "backgroundColor": [1, 0, 0, 1]},
          {"name": "back", "bounds": [0, 0, 60, 60], "position": [50, 50], "backgroundColor": [0, 0, 1, 1]}]},
         "times": [0, 0.5], "hitTests": [{"time": 0, "point": [50, 50]}]}
        """
        let output = try SampleRunner.run(doc, frames: true)
        let samples = try #require(output["samples"]?.arrayValue)
        var ids: [[String: Double]] = []
        for (index, sample) in samples.enumerated() {
            let frame = try #require(sample["frame"])
            #expect(frame["type"]?.stringValue == "frame")
            #expect(frame["full"]?.boolValue == true)
            #expect(frame["n"]?.doubleValue == Double(index + 1))
            let items = try #require(frame["items"]?.arrayValue).filter { $0["bg"] != nil }
            #expect(items.compactMap { $0["name"]?.stringValue } == ["back", "front"])
            #expect(items.compactMap { $0["bg"]?.stringValue } == ["#0000ff", "#ff0000"])
            ids.append(Dictionary(uniqueKeysWithValues: items.compactMap { item in
                item["name"]?.stringValue.map { ($0, item["id"]?.doubleValue ?? -1) }
            }))
        }
        #expect(ids.count == 2 && ids[0] == ids[1])
        #expect(output["hits"]?[0]?["layer"]?.stringValue == "front")
        #expect(try SampleRunner.run(doc)["samples"]?[0]?["frame"] == nil)
    }
}

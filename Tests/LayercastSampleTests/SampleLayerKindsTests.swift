import Foundation
import Testing
@testable import LayercastJSON
@testable import LayercastSample

/// Shape, gradient and replicator layers and masks in `layercast sample` documents (docs/sample.md),
/// with values derived by hand from docs/engine-model.md §10.
@Suite struct SampleLayerKindsTests {
    private func layers(in document: String, sample index: Int = 0) throws -> JSONObject {
        let output = try SampleRunner.run(document)
        return try #require(output["samples"]?[index]?["layers"]?.objectValue)
    }

    private func numbers(_ value: JSONValue?) -> [Double] {
        value?.arrayValue?.compactMap(\.doubleValue) ?? []
    }

    @Test func shapeStrokeEndAndPathHalfway() throws {
        // strokeEnd 0 → 1 and a line (0,0)–(10,0) → (0,10)–(20,20) over 2 s: at 1 s every value is halfway.
        let doc = """
        {"root": {"name": "s", "type": "shape", "path": [["move", 0, 0], ["line", 10, 0]], "animations": [
          {"keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 2},
          {"keyPath": "path", "toValue": [["move", 0, 10], ["line", 20, 20]], "duration": 2}]}, "times": [1]}
        """
        let s = try #require(try layers(in: doc)["s"])
        #expect(s["strokeEnd"]?.doubleValue == 0.5)
        #expect(s["path"] == .array([["move", 0, 5], ["line", 15, 10]]))
        // Apple's defaults for what the document leaves out: opaque black fill, no stroke, width 1.
        #expect(numbers(s["fillColor"]) == [0, 0, 0, 1])
        #expect(numbers(s["strokeColor"]) == [0, 0, 0, 0])
        #expect(s["lineWidth"]?.doubleValue == 1)
    }

    @Test func gradientLocationsInterpolate() throws {
        // [0, 1] → [0.5, 1] over 1 s, at 0.4 s: [0.2, 1].
        let doc = """
        {"root": {"name": "g", "type": "gradient", "colors": [[1, 0, 0, 1], [0, 0, 1, 1]], "gradientType": "conic",
          "animations": [{"keyPath": "locations", "fromValue": [0, 1], "toValue": [0.5, 1], "duration": 1}]},
         "times": [0.4]}
        """
        let g = try #require(try layers(in: doc)["g"])
        let locations = numbers(g["locations"])
        #expect(locations.count == 2 && abs(locations[0] - 0.2) < 1e-9 && locations[1] == 1)
        #expect(g["gradientType"]?.stringValue == "conic")
        #expect(numbers(g["startPoint"]) == [0.5, 0])
    }

    @Test func replicatorCopiesFollowApplesColourExample() throws {
        // Apple's overview: blue and green offsets −0.2 take a white copy to (1, 0, 0) at k = 5.
        // instanceDelay 0.5: copy 1's sublayer is at parent time 1 − 0.5, so 0 → 1 over 2 s shows 0.25.
        let doc = """
        {"root": {"name": "r", "type": "replicator", "bounds": [0, 0, 100, 100], "instanceCount": 6,
          "instanceBlueOffset": -0.2, "instanceGreenOffset": -0.2, "instanceDelay": 0.5,
          "sublayers": [{"name": "dot", "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 2}]}]},
         "times": [1]}
        """
        let r = try #require(try layers(in: doc)["r"])
        let copies = try #require(r["instances"]?.arrayValue)
        #expect(copies.count == 5)
        let fifth = numbers(copies[4]["color"])
        #expect(fifth.count == 4 && fifth[0] == 1 && abs(fifth[1]) < 1e-6 && abs(fifth[2]) < 1e-6 && fifth[3] == 1)
        #expect(copies[0]["timeShift"]?.doubleValue == -0.5)
        #expect(copies[0]["layers"]?["dot"]?["opacity"]?.doubleValue == 0.25)
    }

    @Test func maskIsReportedAndNeverHit() throws {
        // The mask covers (0…300)² but is never hit; the masked layer covers (0…100)².
        let doc = """
        {"root": {"name": "r", "bounds": [0, 0, 100, 100], "position": [50, 50],
          "mask": {"name": "m", "bounds": [0, 0, 300, 300], "position": [150, 150], "opacity": 0.5}},
         "times": [0], "hitTests": [{"time": 0, "point": [200, 200]}, {"time": 0, "point": [5, 5]}]}
        """
        let output = try SampleRunner.run(doc)
        #expect(output["samples"]?[0]?["layers"]?["m"]?["opacity"]?.doubleValue == 0.5)
        #expect(output["hits"]?[0]?["layer"] == .null)
        #expect(output["hits"]?[1]?["layer"]?.stringValue == "r")
    }

    @Test(arguments: [
        (#"{"root": {"type": "shape", "path": [["move", 0, 0], ["arc", 1, 2]]}}"#, "root.path[1]"),
        (#"{"root": {"type": "shape", "path": [["line", 1, 2]]}}"#, "root.path[0]"),
        (#"{"root": {"type": "shape", "lineDashPattern": [4, 1e7]}}"#, "root.lineDashPattern[1]"),
        (#"{"root": {"type": "gradient", "gradientType": "diamond"}}"#, "root.gradientType"),
        (#"{"root": {"type": "replicator", "instanceCount": -1}}"#, "root.instanceCount"),
        (#"{"root": {"type": "shape", "lineWidth": NaN}}"#, "root.lineWidth"),
        (#"{"root": {"animations": [{"keyPath": "strokeEnd", "toValue": 0.5}]}}"#, "root.animations[0].keyPath"),
        (#"{"root": {"fillColor": [1, 0, 0, 1]}}"#, "root.fillColor"),
    ])
    func badInputNamesTheOffendingPath(document: String, path: String) {
        let result = Result { () throws(SampleError) in try SampleRunner.run(document) }
        guard case .failure(let e) = result else {
            Issue.record("accepted \(document)")
            return
        }
        #expect(e.path == path, "got \(e)")
    }
}

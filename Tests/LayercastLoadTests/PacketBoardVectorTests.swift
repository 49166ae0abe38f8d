import Foundation
import LayercastJSON
import Testing
@testable import LayercastLoad

/// The golden vectors of Tests/vectors/ applied by the load tool's decoder (`PacketBoard`, the
/// fourth beside the Swift, JavaScript and Python ones): after every message it holds exactly the
/// vector's items, with the fields it aims by (name, matrix, size, image).
@Suite struct PacketBoardVectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../vectors")
    /// The frame vectors (particle-states.json holds evaluator cases, not frames).
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") && $0 != "particle-states.json" }.sorted()

    @Test func thereAreVectors() {
        #expect(Self.files.count >= 4, "\(Self.files)")
    }

    @Test(arguments: files)
    func boardFollowsTheVector(_ file: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        let steps = try #require(try JSONValue.parse(text)["steps"]?.arrayValue)
        var board = PacketBoard()
        var number = -1
        for (index, step) in steps.enumerated() {
            let message = try #require(step["message"])
            let n = try #require(message["n"]?.intValue)
            if message["full"]?.boolValue != true {
                let base = try #require(FramePrefix.base(of: message, number: n))
                #expect(base <= number && number < n, "\(file) step \(index): the delta does not apply to frame \(number)")
                // The prefix reader finds the same `b` in the text the server writes.
                let prefix = Array(message.serialized().utf8).withUnsafeBytes { FramePrefix($0) }
                #expect(prefix?.base == base, "\(file) step \(index)")
            }
            board.apply(frame: message)
            number = n
            var expected: [Int: PacketBoard.Item] = [:]
            for entry in try #require(step["items"]?.arrayValue) {
                var item = PacketBoard.Item()
                item.name = entry["name"]?.stringValue
                if let m = entry["m"]?.arrayValue { item.matrix = m.compactMap(\.doubleValue) }
                if let s = entry["s"]?.arrayValue?.compactMap(\.doubleValue), s.count == 2 { (item.width, item.height) = (s[0], s[1]) }
                item.image = entry["img"]?.stringValue
                expected[try #require(entry["id"]?.intValue)] = item
            }
            #expect(board.items == expected, "\(file) step \(index): \(step["note"]?.stringValue ?? "")")
        }
    }
}

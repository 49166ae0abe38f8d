import Foundation
import LayercastSample
import Testing

/// Every input of `Fuzz/corpus/FuzzSampleDocument` (the seeds and each crash found, see
/// docs/reliability.md) through `SampleRunner` as the fuzz target feeds it, on every `swift test`.
@Suite struct SampleFuzzCorpusTests {
    @Test func documentsRunOrNameTheOffendingPath() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/corpus/FuzzSampleDocument")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
            if case .failure(let error) = Result(catching: { () throws(SampleError) in try SampleRunner.run(text) }) {
                #expect(!error.path.isEmpty, "\(name): \(error)")
            }
        }
    }
}

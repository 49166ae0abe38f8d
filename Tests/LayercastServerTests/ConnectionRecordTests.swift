import Foundation
import Testing

/// What the transport keeps of a connection is its `Connection` record, in one table forgotten in
/// one place (`Server.forget`): no other property of the transport is keyed by a connection's wsi.
@Suite struct ConnectionRecordTests {
    @Test func onlyTheConnectionTableIsKeyedByAConnection() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/LayercastServer")
        var keyed: [String] = []
        var checked = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.replacingOccurrences(of: " ", with: "").contains("[OpaquePointer:") {
                keyed.append("\(file): \(line.trimmingCharacters(in: .whitespaces))")
            }
            checked += 1
        }
        #expect(checked > 40)
        #expect(keyed == ["Server.swift: var connections: [OpaquePointer: Connection] = [:]"])
    }
}

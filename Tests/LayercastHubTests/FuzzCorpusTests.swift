import Foundation
import LayercastHub
import LayercastSceneAPI
import LayercastScenes
import LayercastWire
import Testing

/// Every input of the fuzz targets' corpora (Fuzz/corpus: the seeds and each crash found, see
/// docs/reliability.md) through the same parser, as the target feeds it, on every `swift test`.
@Suite struct FuzzCorpusTests {
    /// The inputs of `Fuzz/corpus/<target>`.
    static func corpus(_ target: String) throws -> [[UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/corpus/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    @Test func clientMessagesDecodeWithinTheProtocolsRanges() throws {
        let inputs = try Self.corpus("FuzzClientMessage")
        #expect(!inputs.isEmpty)
        for input in inputs {
            if case .success(.tap(let x, let y, let viewTime, _)) = input.withUnsafeBytes({ ClientMessage.decode($0) }) {
                #expect(abs(x) <= ClientMessage.coordinateLimit && abs(y) <= ClientMessage.coordinateLimit && viewTime.isFinite)
            }
        }
    }

    @Test func joinQueriesParseUnderEveryPolicy() throws {
        let inputs = try Self.corpus("FuzzJoinRequest")
        #expect(!inputs.isEmpty)
        for input in inputs where !input.isEmpty {
            var arguments: [String: String] = [:]
            for fragment in input.dropFirst().split(separator: UInt8(ascii: "&"), maxSplits: 15, omittingEmptySubsequences: false) {
                let parts = String(decoding: fragment, as: UTF8.self).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, arguments[String(parts[0])] == nil { arguments[String(parts[0])] = String(parts[1]) }
            }
            let outcome = UntrustedInput.join(arguments, tokenSecret: input[0] & 1 == 0 ? nil : "fuzz-secret-0123456789",
                                              allowAnonymous: input[0] & 2 == 0, now: Date(timeIntervalSince1970: 1_795_000_000))
            if case .refused(let code) = outcome { #expect(ErrorCode.webSocket.contains(ErrorCode(rawValue: code)), "\(code)") }
        }
    }

    @Test func adminBodiesAreAcceptedOrRefusedWith400() throws {
        let inputs = try Self.corpus("FuzzAdminBody")
        #expect(!inputs.isEmpty)
        for input in inputs where !input.isEmpty {
            let body = Array(input.dropFirst())
            let refusal = input[0] & 1 == 0 ? UntrustedCommandBody.rain(body) : UntrustedCommandBody.snow(body)
            if let refusal { #expect(refusal.status == 400, "\(String(decoding: body, as: UTF8.self))") }
        }
    }
}

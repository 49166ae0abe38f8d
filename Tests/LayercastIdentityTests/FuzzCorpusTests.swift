import Foundation
import LayercastIdentity
import Testing

/// Every input of `Fuzz/corpus/FuzzPlayerToken` (the seeds and each crash found, see
/// docs/reliability.md) through `TokenVerifier` as the fuzz target feeds it, on every `swift test`.
@Suite struct TokenFuzzCorpusTests {
    @Test func tokensVerifyOrAreRefusedForTheRightReason() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/corpus/FuzzPlayerToken")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        let secret = "fuzz-secret-0123456789"
        let verifier = TokenVerifier(secret: secret)
        for name in names {
            let input = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            guard let selector = input.first else { continue }
            let rest = String(decoding: input.dropFirst(), as: UTF8.self)
            let signed = selector & 1 == 1
            let token = signed ? TokenSigner.sign(payload: rest, secret: Array(secret.utf8)) : rest
            switch verifier.verify(token, now: Date(timeIntervalSince1970: 1_795_000_000)) {
            case .success(let identity):
                #expect(!identity.id.lowercased().hasPrefix(PlayerIdentity.anonymousPrefix), "\(name)")
            case .failure(let error):
                #expect(!(signed && error.code == .badSignature), "\(name): \(error)")
            }
        }
    }
}

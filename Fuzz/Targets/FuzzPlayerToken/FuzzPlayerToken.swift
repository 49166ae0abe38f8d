import Foundation
import FuzzDriver
import LayercastIdentity

private let secret = "fuzz-secret-0123456789"
private let verifier = TokenVerifier(secret: secret)
private let now = Date(timeIntervalSince1970: 1_795_000_000)

/// libFuzzer target: player tokens through `TokenVerifier`. The first byte picks the mode: even,
/// the rest is the token as sent; odd, the rest is a payload that is signed with the verifier's
/// secret first, so the claims are reached. It must never trap; a signed payload is never
/// refused as `bad_signature`, and an accepted identity obeys the claim rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayerToken(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let rest = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let signed = data[0] & 1 == 1
    let token = signed ? TokenSigner.sign(payload: rest, secret: Array(secret.utf8)) : rest
    switch verifier.verify(token, now: now) {
    case .success(let identity):
        precondition((1...64).contains(identity.id.utf8.count), "accepted sub \(identity.id)")
        precondition(!identity.id.lowercased().hasPrefix(PlayerIdentity.anonymousPrefix), "accepted an anon- sub")
        precondition((1...32).contains(identity.name.unicodeScalars.count), "accepted name \(identity.name)")
        precondition(identity.expires.map { $0 > now } ?? false, "accepted an expired token")
    case .failure(let error):
        precondition(!(signed && error.code == .badSignature), "a signed payload failed its signature: \(error)")
    }
    return 0
}

/// SwiftPM gives every executable a main of its own: it hands over to libFuzzer, which calls
/// `LLVMFuzzerTestOneInput` above (also the entry for libFuzzer's own main).
@main
enum Main {
    static func main() { exit(layercast_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzPlayerToken)) }
}

import Foundation
import FuzzDriver
import LayercastHub

/// libFuzzer target: a WebSocket join's query string. The first byte picks the server's identity
/// policy (token secret or not, anonymous play or not); the rest is split into `name=value`
/// fragments at `&` as libwebsockets hands them over (the first of a name wins, at most 16), and
/// checked as `/ws` checks them. It must never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJoinRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let policy = data[0]
    let query = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var arguments: [String: String] = [:]
    for fragment in query.split(separator: UInt8(ascii: "&"), maxSplits: 15, omittingEmptySubsequences: false) {
        let text = String(decoding: fragment, as: UTF8.self)
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, arguments[String(parts[0])] == nil { arguments[String(parts[0])] = String(parts[1]) }
    }
    _ = UntrustedInput.join(arguments, tokenSecret: policy & 1 == 0 ? nil : "fuzz-secret-0123456789",
                            allowAnonymous: policy & 2 == 0, now: Date(timeIntervalSince1970: 1_795_000_000))
    return 0
}

/// SwiftPM gives every executable a main of its own: it hands over to libFuzzer, which calls
/// `LLVMFuzzerTestOneInput` above (also the entry for libFuzzer's own main).
@main
enum Main {
    static func main() { exit(layercast_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzJoinRequest)) }
}

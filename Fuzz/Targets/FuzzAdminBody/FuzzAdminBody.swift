import Foundation
import FuzzDriver
import LayercastScenes

/// libFuzzer target: an admin request body. The first byte picks the route (even: rain, odd:
/// snow); the rest is the body. It must never trap, and every refusal must be a 400 (a body is
/// never the server's fault).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdminBody(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let refusal = data[0] & 1 == 0 ? UntrustedCommandBody.rain(body) : UntrustedCommandBody.snow(body)
    if let refusal {
        precondition(refusal.status == 400, "an admin body was refused with \(refusal.status) \(refusal.code.rawValue)")
    }
    return 0
}

/// SwiftPM gives every executable a main of its own: it hands over to libFuzzer, which calls
/// `LLVMFuzzerTestOneInput` above (also the entry for libFuzzer's own main).
@main
enum Main {
    static func main() { exit(layercast_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzAdminBody)) }
}

import Foundation
import FuzzDriver
import LayercastWire

/// libFuzzer target: any bytes as one WebSocket text message, through LayercastJSON into
/// `ClientMessage.decode`. It must never trap, and what it accepts must be within the protocol's
/// ranges (docs/protocol.md, "Client → server").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard case .success(let message) = ClientMessage.decode(UnsafeRawBufferPointer(start: data, count: size)) else { return 0 }
    let limit = ClientMessage.coordinateLimit
    switch message {
    case .tap(let x, let y, let viewTime, let id):
        precondition(abs(x) <= limit && abs(y) <= limit && viewTime.isFinite && (id?.isFinite ?? true), "tap out of range: \(message)")
    case .drag(_, let x, let y, let viewTime):
        precondition(abs(x) <= limit && abs(y) <= limit && viewTime.isFinite, "drag out of range: \(message)")
    case .ping(let id):
        precondition(id?.isFinite ?? true, "ping id not finite: \(message)")
    case .ack(let n):
        precondition(n >= 0 && n <= 9_007_199_254_740_991, "ack n out of range: \(message)")
    }
    return 0
}

/// SwiftPM gives every executable a main of its own: it hands over to libFuzzer, which calls
/// `LLVMFuzzerTestOneInput` above (also the entry for libFuzzer's own main).
@main
enum Main {
    static func main() { exit(layercast_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzClientMessage)) }
}

import Foundation
import FuzzDriver
import LayercastSample

/// libFuzzer target: a `layercast sample` document (docs/sample.md), decoded and run. It must
/// never trap: bad input is a `SampleError` naming the offending path.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSampleDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    if case .failure(let error) = Result(catching: { () throws(SampleError) in try SampleRunner.run(text) }) {
        precondition(!error.path.isEmpty, "a sample error names no path: \(error)")
    }
    return 0
}

/// SwiftPM gives every executable a main of its own: it hands over to libFuzzer, which calls
/// `LLVMFuzzerTestOneInput` above (also the entry for libFuzzer's own main).
@main
enum Main {
    static func main() { exit(layercast_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzSampleDocument)) }
}

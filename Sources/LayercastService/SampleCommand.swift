import ArgumentParser
import Foundation
import LayercastSample

/// `layercast sample FILE|-`: prints presentation values and hit-test results for a scene
/// description (the format is in docs/sample.md).
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Evaluate a scene description and print presentation values as JSON."
    )

    @Argument(help: "The scene description: a file path, or - for standard input.")
    var input: String

    @Flag(help: "Indent the output.")
    var pretty = false

    @Flag(help: "Add to each sample the full frame message the server would send of the tree then.")
    var frames = false

    func run() throws {
        let text: String
        if input == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: input) else {
                throw ValidationError("cannot read \(input)")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        do {
            let output = try SampleRunner.run(text, frames: frames)
            print(output.serialized(pretty: pretty))
        } catch {
            FileHandle.standardError.write(Data("layercast sample: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

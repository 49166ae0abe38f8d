/// A problem with a `layercast sample` input, located by its path in the document
/// (e.g. `root.sublayers[3].animations[0].keyTimes`).
public struct SampleError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

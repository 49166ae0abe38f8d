/// What some clients measured since the progress line was last drawn.
struct ProgressWindow: Sendable, Codable {
    var frames = 0
    var frameAge = LatencyHistogram()

    mutating func merge(_ other: ProgressWindow) {
        frames += other.frames
        frameAge.add(other.frameAge)
    }
}

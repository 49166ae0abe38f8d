/// What the clients of one thread measured since the progress line was last drawn.
struct ProgressWindow: Sendable {
    var frames = 0
    var frameAge = LatencyHistogram()

    mutating func merge(_ other: ProgressWindow) {
        frames += other.frames
        frameAge.add(other.frameAge)
    }
}

/// What some clients measured since the progress line was last drawn: frames, their ages, and
/// the tap → result latencies of the taps answered.
struct ProgressWindow: Sendable, Codable {
    var frames = 0
    var frameAge = LatencyHistogram()
    var tapLatency = LatencyHistogram()

    mutating func merge(_ other: ProgressWindow) {
        frames += other.frames
        frameAge.add(other.frameAge)
        tapLatency.add(other.tapLatency)
    }
}

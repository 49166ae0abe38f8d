/// The run second by second for the HTML report: one point per progress sample (at most one a
/// second, so at most `--duration` ≤ 3600 points), and named marks at times of the run (a
/// bench's kill, from `--mark-file`).
public struct LoadTimeline: Sendable, Equatable {
    /// One second of the run.
    public struct Point: Sendable, Equatable {
        /// Seconds from the run's start at the end of this second.
        public var second: Double
        /// Connections open at that moment.
        public var connected: Int
        /// Frames received over the second.
        public var frames: Int
        /// Frame age and tap → result percentiles over the second in milliseconds; nil when
        /// nothing was measured.
        public var frameAgeP50: Double?
        public var frameAgeP99: Double?
        public var tapP50: Double?
        public var tapP99: Double?
        /// Errors and reconnect attempts during the second.
        public var errors: Int
        public var reconnects: Int
    }

    /// Something that happened at `seconds` from the run's start.
    public struct Mark: Sendable, Equatable {
        public var seconds: Double
        public var name: String
    }

    public private(set) var points: [Point] = []
    public private(set) var marks: [Mark] = []
    /// Errors and reconnects so far at the last point (samples count them from the start).
    private var errorsSoFar = 0
    private var reconnectsSoFar = 0

    public init() {}

    /// Adds the sample of the second ending `elapsed` seconds after the start.
    mutating func add(_ sample: ProgressSample, at elapsed: Double) {
        func percentiles(_ histogram: LatencyHistogram) -> (Double?, Double?) {
            guard histogram.count > 0 else { return (nil, nil) }
            let summary = histogram.summary
            return (summary.p50, summary.p99)
        }
        let age = percentiles(sample.window.frameAge), tap = percentiles(sample.window.tapLatency)
        points.append(Point(second: elapsed, connected: sample.open, frames: sample.window.frames, frameAgeP50: age.0, frameAgeP99: age.1,
                            tapP50: tap.0, tapP99: tap.1, errors: max(0, sample.errors - errorsSoFar),
                            reconnects: max(0, sample.reconnects - reconnectsSoFar)))
        errorsSoFar = sample.errors
        reconnectsSoFar = sample.reconnects
    }

    /// Marks `name` at `seconds` from the run's start.
    public mutating func mark(_ name: String, at seconds: Double) {
        marks.append(Mark(seconds: seconds, name: name))
    }
}

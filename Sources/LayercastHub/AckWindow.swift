/// How many frames may be in flight to a client that acknowledges them (protocol.md,
/// "Acknowledged frames"): the frames sent and not yet acknowledged, and a window that grows by
/// one for each window's worth of acknowledgements that came back as fast as the fastest seen
/// (nothing queues on the way), and halves, never below `minimum`, for each that comes back late
/// (frames wait in a queue). Growing by one a window, not one an acknowledgement, keeps a slow
/// link from taking a burst of frames before the first late acknowledgement shows its queue.
///
/// So a slow link holds about two frames, and the view it shows stays about one frame plus its
/// transit old, while a fast link far away keeps a round trip's worth in flight at full rate.
struct AckWindow {
    /// The fewest frames the window allows in flight.
    static let minimum = 2
    /// The most: a second of frames, at most.
    let maximum: Int
    /// Seconds between ticks: the slack an acknowledgement may come back with and still count as fast.
    let tick: Double
    private(set) var size = AckWindow.minimum
    /// The shortest time from a frame's write to its acknowledgement seen yet.
    private(set) var fastest = Double.infinity
    /// The frames written and not yet acknowledged, oldest first, with when each was written.
    private(set) var inFlight: [(number: Int, sentAt: Double)] = []
    /// Fast acknowledgements since the window last grew.
    private var fastSinceGrowth = 0

    init(framesPerSecond: Int, tick: Double) {
        maximum = max(Self.minimum, framesPerSecond)
        self.tick = tick
    }

    /// Whether another frame may be written now.
    var isOpen: Bool { inFlight.count < size }

    mutating func sent(_ number: Int, at time: Double) {
        inFlight.append((number, time))
    }

    /// The client applied frame `number` (and every frame before it) at `time`.
    mutating func acknowledged(_ number: Int, at time: Double) {
        guard let newest = inFlight.lastIndex(where: { $0.number <= number }) else { return }
        let lag = time - inFlight[newest].sentAt
        inFlight.removeFirst(newest + 1)
        fastest = min(fastest, lag)
        if lag <= fastest * 1.25 + tick {
            fastSinceGrowth += 1
            if fastSinceGrowth >= size {
                size = min(size + 1, maximum)
                fastSinceGrowth = 0
            }
        } else if lag > fastest * 1.5 + 2 * tick {
            size = max(Self.minimum, size / 2)
            fastSinceGrowth = 0
        }
    }

    /// Forgets the frames in flight (the room's frames were numbered afresh).
    mutating func reset() {
        inFlight.removeAll()
    }
}

/// What a progress line and the report's timeline show of some clients, taken once a second:
/// connections open now, errors and reconnect attempts so far, and what they measured over the
/// second (a worker sends one to its parent each second; the parent adds them up).
public struct ProgressSample: Sendable, Codable {
    var open = 0
    var errors = 0
    var reconnects = 0
    var window = ProgressWindow()

    mutating func merge(_ other: ProgressSample) {
        open += other.open
        errors += other.errors
        reconnects += other.reconnects
        window.merge(other.window)
    }

    /// The line for second `elapsed` of a run of `clients` clients.
    func line(elapsed: Double, clients: Int) -> String {
        ProgressLine.text(elapsed: elapsed, connected: open, clients: clients, framesPerSecond: Double(window.frames),
                          p99FrameAge: window.frameAge.count > 0 ? window.frameAge.summary.p99 : nil, errors: errors)
    }
}

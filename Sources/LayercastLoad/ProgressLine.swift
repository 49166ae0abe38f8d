/// The live line a run draws once a second: elapsed time, clients connected, frames per second
/// over the last second, the p99 frame age over the last second, and errors so far.
public enum ProgressLine {
    /// `  12 s  connected 4980/5000  frames/s 149400  p99 age 23.4 ms  errors 3`.
    public static func text(elapsed: Double, connected: Int, clients: Int, framesPerSecond: Double, p99FrameAge: Double?, errors: Int) -> String {
        let age = p99FrameAge.map(LatencySummary.milliseconds) ?? "–"
        return "\(pad(String(Int(elapsed.rounded(.down))), 4)) s  connected \(connected)/\(clients)  frames/s \(Int(framesPerSecond.rounded()))  p99 age \(age)  errors \(errors)"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

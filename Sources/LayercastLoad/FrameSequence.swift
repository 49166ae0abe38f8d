/// The frame numbers one client received, in order: how many it got and how many of the room's
/// frames between them it never saw. `n` increases by exactly 1 per room tick, but a tick that
/// changed nothing is not sent (`sparse`): a delta whose range (`b` through `n - 1`) holds the
/// newest frame received skipped nothing; a full frame, or a delta from past it, skipped the
/// ticks in between.
public struct FrameSequence: Sendable, Equatable {
    /// Frames received.
    public private(set) var received = 0
    /// Frames of the room between the first and the last received that never arrived.
    public private(set) var skipped = 0
    /// Frames whose `n` was not above the one before (protocol.md never sends them).
    public private(set) var outOfOrder = 0
    /// The newest `n`.
    public private(set) var last: Int?

    public init() {}

    /// Records frame `n`, a delta from frame `base` on (nil: a full frame); returns how many
    /// frames were skipped right before it.
    @discardableResult
    public mutating func record(_ n: Int, base: Int? = nil) -> Int {
        received += 1
        guard let last else {
            self.last = n
            return 0
        }
        guard n > last else {
            outOfOrder += 1
            return 0
        }
        let gap = base.map { $0 <= last } == true ? 0 : n - last - 1
        skipped += gap
        self.last = n
        return gap
    }

    /// `skipped / (received + skipped)`: the share of the room's frames, over the span a client
    /// watched, that it did not get; 0 when nothing was received.
    public static func skipRatio(skipped: Int, received: Int) -> Double {
        let span = skipped + received
        return span == 0 ? 0 : Double(skipped) / Double(span)
    }
}

/// A client's estimate of where the room's media time 0 lies on its own monotonic clock, from
/// messages that carry a server media time (`welcome.time`, `pong.time`, `frame.t`).
///
/// Each such message was stamped before it arrived, so `receipt − mediaTime` is the true offset
/// plus that message's one-way delay; the estimate is the smallest of these seen so far. Ages
/// measured against it are therefore never negative and are low by at most the smallest one-way
/// delay observed (below one ping round trip; tens of microseconds on loopback).
public struct ServerClockEstimate: Sendable, Equatable {
    /// Monotonic seconds at media time 0; nil before the first message.
    public private(set) var offset: Double?

    public init() {}

    /// Takes in a message stamped `mediaTime` that arrived at monotonic `receivedAt`.
    public mutating func observe(mediaTime: Double, receivedAt: Double) {
        let candidate = receivedAt - mediaTime
        if offset.map({ candidate < $0 }) ?? true { offset = candidate }
    }

    /// Seconds from media time `mediaTime` to monotonic `receivedAt`; nil before any message.
    public func age(of mediaTime: Double, receivedAt: Double) -> Double? {
        offset.map { receivedAt - $0 - mediaTime }
    }
}

import Foundation

/// Seconds on the monotonic clock (CLOCK_MONOTONIC), the time base of ticks, rooms, stalls and every measurement of the load tool.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

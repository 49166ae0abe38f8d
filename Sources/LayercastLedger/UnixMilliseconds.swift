import Foundation

// How both ledgers store a date: unix milliseconds in a 64-bit integer.
extension Date {
    /// Unix milliseconds, rounded to the nearest.
    var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    init(unixMilliseconds: Int64) { self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000) }
}

import Foundation

/// A server process's CPU time and memory read from `/proc/<pid>/stat` and `/proc/<pid>/status`
/// (Linux only; a server on this machine).
public struct ServerProcessSample: Sendable, Equatable {
    /// User plus system CPU seconds since the process started.
    public var cpuSeconds: Double
    /// Resident set size now (`VmRSS`), bytes.
    public var residentBytes: Int
    /// Peak resident set size since the process started (`VmHWM`), bytes.
    public var peakResidentBytes: Int

    public init(cpuSeconds: Double, residentBytes: Int, peakResidentBytes: Int) {
        (self.cpuSeconds, self.residentBytes, self.peakResidentBytes) = (cpuSeconds, residentBytes, peakResidentBytes)
    }

    /// Reads process `pid`; nil when it does not exist or cannot be read.
    public static func read(pid: Int32) -> ServerProcessSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return parse(stat: stat, status: status, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// From the texts of `stat` (utime and stime, fields 14 and 15, in clock ticks) and `status`
    /// (`VmRSS` and `VmHWM` in kB).
    static func parse(stat: String, status: String, ticksPerSecond: Double) -> ServerProcessSample? {
        // The command name (field 2) is in parentheses and may hold spaces: count after the last ")".
        guard let close = stat.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return nil }
        func kilobytes(_ key: String) -> Int? {
            for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
                return line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            }
            return nil
        }
        guard let rss = kilobytes("VmRSS"), let hwm = kilobytes("VmHWM") else { return nil }
        return ServerProcessSample(cpuSeconds: (utime + stime) / ticksPerSecond, residentBytes: rss * 1024, peakResidentBytes: hwm * 1024)
    }
}

import Glibc

/// The CPUs this process may run on (`sched_getaffinity`: a `taskset` around the tool narrows
/// them, and its workers inherit that), and pinning the calling process to one of them.
public enum CPUAffinity {
    /// The allowed CPUs, ascending; empty when they cannot be read.
    public static func allowed() -> [Int] {
        guard let get = function("sched_getaffinity") else { return [] }
        var set = cpu_set_t()
        guard get(0, MemoryLayout<cpu_set_t>.size, &set) == 0 else { return [] }
        return withUnsafeBytes(of: &set) { bytes in
            bytes.indices.flatMap { byte in (0..<8).filter { bytes[byte] & (1 << $0) != 0 }.map { byte * 8 + $0 } }
        }
    }

    /// The CPU of worker `worker`: the allowed CPUs in turn (worker *w* on the *w*-th, modulo their number).
    public static func cpu(forWorker worker: Int, allowed: [Int]) -> Int? {
        allowed.isEmpty ? nil : allowed[worker % allowed.count]
    }

    /// Pins this process to `cpu`; false when the system refused (e.g. a CPU outside its cpuset).
    public static func pin(to cpu: Int) -> Bool {
        guard let set = function("sched_setaffinity"), (0..<(MemoryLayout<cpu_set_t>.size * 8)).contains(cpu) else { return false }
        var mask = cpu_set_t()
        withUnsafeMutableBytes(of: &mask) { $0[cpu / 8] = 1 << UInt8(cpu % 8) }
        return set(0, MemoryLayout<cpu_set_t>.size, &mask) == 0
    }

    /// glibc's `sched_getaffinity`/`sched_setaffinity`, which Swift's Glibc module does not
    /// import (they are `_GNU_SOURCE` declarations), looked up by name.
    private typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
    private static func function(_ name: String) -> Call? {
        dlsym(nil, name).map { unsafeBitCast($0, to: Call.self) }
    }
}

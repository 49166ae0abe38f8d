/// Limits a run must stay within (`--max-skip-ratio`, `--max-p99-frame-age-ms`,
/// `--max-p99-tap-ms`, and a scenario's `thresholds`, which add `maxP99ReconnectMs` and
/// `maxP99ReconnectFirstFrameMs`); a limit is breached too when nothing was measured to check it against.
public struct ServiceLevelObjectives: Sendable, Equatable {
    public var maxSkipRatio: Double?
    public var maxP99FrameAgeMs: Double?
    public var maxP99TapMs: Double?
    /// From a close the client did not ask for to the `welcome` of its next connection (scenarios' `reconnect`).
    public var maxP99ReconnectMs: Double?
    /// From such a close to the first frame after the `welcome` that ended it.
    public var maxP99ReconnectFirstFrameMs: Double?

    public init(maxSkipRatio: Double? = nil, maxP99FrameAgeMs: Double? = nil, maxP99TapMs: Double? = nil) {
        (self.maxSkipRatio, self.maxP99FrameAgeMs, self.maxP99TapMs) = (maxSkipRatio, maxP99FrameAgeMs, maxP99TapMs)
    }

    public var isEmpty: Bool { maxSkipRatio == nil && maxP99FrameAgeMs == nil && maxP99TapMs == nil && maxP99ReconnectMs == nil && maxP99ReconnectFirstFrameMs == nil }

    /// One objective checked against a run.
    public struct Check: Sendable, Equatable {
        /// The flag that set it, e.g. `--max-skip-ratio`, or a scenario's key, e.g. `tappers.maxP99TapMs`.
        public var flag: String
        public var limit: Double
        /// What the run measured; nil when it measured nothing to compare.
        public var value: Double?
        public var breached: Bool { value.map { $0 > limit } ?? true }

        /// `--max-skip-ratio 0.01: 0.1 (breached)`.
        public var text: String {
            let measured = value.map { "\(Self.format($0))" } ?? "nothing measured"
            return "\(flag) \(Self.format(limit)): \(measured) \(breached ? "(BREACHED)" : "(ok)")"
        }

        static func format(_ x: Double) -> String {
            x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String((x * 10000).rounded() / 10000)
        }
    }

    /// The objectives that were set, in flag order, checked against `stats`; named by their flags,
    /// or by `scope` and their scenario keys (`scope.maxSkipRatio`) when a scope is given.
    public func checks(_ stats: LoadStats, scope: String? = nil) -> [Check] {
        func name(_ flag: String, _ key: String) -> String { scope.map { "\($0).\(key)" } ?? flag }
        var checks: [Check] = []
        if let maxSkipRatio {
            let ratio = stats.frames > 0 ? FrameSequence.skipRatio(skipped: stats.skipped, received: stats.frames) : nil
            checks.append(Check(flag: name("--max-skip-ratio", "maxSkipRatio"), limit: maxSkipRatio, value: ratio))
        }
        if let maxP99FrameAgeMs {
            let age = stats.frameAge.count > 0 ? stats.frameAge.summary.p99 : nil
            checks.append(Check(flag: name("--max-p99-frame-age-ms", "maxP99FrameAgeMs"), limit: maxP99FrameAgeMs, value: age))
        }
        if let maxP99TapMs {
            let tap = stats.tapLatency.count > 0 ? stats.tapLatency.summary.p99 : nil
            checks.append(Check(flag: name("--max-p99-tap-ms", "maxP99TapMs"), limit: maxP99TapMs, value: tap))
        }
        if let maxP99ReconnectMs {
            let reconnect = stats.reconnectTime.count > 0 ? stats.reconnectTime.summary.p99 : nil
            checks.append(Check(flag: name("--max-p99-reconnect-ms", "maxP99ReconnectMs"), limit: maxP99ReconnectMs, value: reconnect))
        }
        if let maxP99ReconnectFirstFrameMs {
            let firstFrame = stats.reconnectFrameTime.count > 0 ? stats.reconnectFrameTime.summary.p99 : nil
            checks.append(Check(flag: name("--max-p99-reconnect-first-frame-ms", "maxP99ReconnectFirstFrameMs"), limit: maxP99ReconnectFirstFrameMs,
                                value: firstFrame))
        }
        return checks
    }
}

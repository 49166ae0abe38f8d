/// The rounding steps of protocol.md's quantisation table. `n / 10^k` is the double nearest to
/// the decimal, so a quantised value prints (15 significant digits) and parses back exactly.
public enum Quantize {
    /// `x` rounded to the nearest multiple of `1 / scale` (ties away from zero), never −0.
    static func round(_ x: Double, scale: Double) -> Double {
        (x * scale).rounded() / scale + 0
    }

    /// `t`, `time`: 1e-6 s.
    public static func time(_ x: Double) -> Double { round(x, scale: 1e6) }
    /// `m` a, b, c, d: 1e-4.
    static func linear(_ x: Double) -> Double { round(x, scale: 1e4) }
    /// `m` tx, ty and every length in points: 1e-2 pt.
    static func points(_ x: Double) -> Double { round(x, scale: 1e2) }
    /// `m` g, h: 1e-7 per point.
    static func perspective(_ x: Double) -> Double { round(x, scale: 1e7) }
    /// `o`, `sh.o`, and text weights (not in the table): 1e-3.
    static func fraction(_ x: Double) -> Double { round(x, scale: 1e3) }
    /// A particle record's birth `b`: 1e-3 s, rounded down (within 1e-9 s of a step counts as on it),
    /// so a particle born by a frame's time is alive at it.
    static func birth(_ x: Double) -> Double { (x * 1e3 + 1e-6).rounded(.down) / 1e3 + 0 }
    /// A particle's rotation `r`: 1e-3 rad.
    static func radians(_ x: Double) -> Double { round(x, scale: 1e3) }
}

import LayercastJSON
import LayercastSceneAPI

/// An emitter item's `pt` (protocol.md, "Particles"): the emitter layer's local time as a linear
/// function of the frame clock, local = rate·t + offset. `[1, 0]` is the default, left out.
public struct DrawParticleClock: Hashable, Sendable {
    /// 1e-6.
    public var rate: Double
    /// 1e-3 s.
    public var offset: Double

    public static let identity = DrawParticleClock(rate: 1, offset: 0)

    public init(rate: Double, offset: Double) {
        self.rate = rate
        self.offset = offset
    }

    /// The emitter's local time at frame-clock time `t`.
    public func local(at t: Double) -> Double { rate * t + offset }

    var tree: JSONTree {
        let pair = JSONTree.array()
        pair.append(rate)
        pair.append(offset)
        return pair
    }

    init(_ field: FieldReader) throws(ProtocolError) {
        let parts = try field.array("[rate, offset]")
        guard parts.count == 2 else { throw field.error("[rate, offset]") }
        self.init(rate: try parts[0].number(), offset: try parts[1].number())
    }
}

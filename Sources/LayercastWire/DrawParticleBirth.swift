import LayercastJSON
import LayercastSceneAPI

/// One particle's birth record in an emitter item's `pb`/`pba` (protocol.md, "Particles"), every
/// number quantised: `[id, kid, b, l, x, y, vx, vy, s, w, a, rgb]`, `a` left out when 1 and `rgb`
/// absent, `rgb` left out when white. Its state at any time follows from it and its kind.
public struct DrawParticleBirth: Hashable, Sendable {
    /// Unique in the item for the room's life, from 1, never reused.
    public var id: Int
    /// Its kind in the item's `pk`.
    public var kind: Int
    /// Birth in the emitter's local time (`pt`), and lifetime: alive while 0 ≤ age < l (1e-3 s).
    public var birth: Double
    public var lifetime: Double
    /// Centre at birth in the item's rect coordinates, 1e-2 pt; velocity 1e-2 pt/s.
    public var x: Double
    public var y: Double
    public var vx: Double
    public var vy: Double
    /// Scale at birth (1e-4), spin in rad/s (1e-3), unclamped alpha at birth (1e-3).
    public var scale: Double
    public var spin: Double
    public var alpha: Double
    /// Colour at birth (clamped to 0…255, opaque); white when absent on the wire.
    public var color: DrawColor

    public static let white = DrawColor(red: 255, green: 255, blue: 255)

    public init(id: Int, kind: Int, birth: Double, lifetime: Double, x: Double, y: Double, vx: Double = 0, vy: Double = 0,
                scale: Double = 1, spin: Double = 0, alpha: Double = 1, color: DrawColor = Self.white) {
        (self.id, self.kind, self.birth, self.lifetime) = (id, kind, birth, lifetime)
        (self.x, self.y, self.vx, self.vy) = (x, y, vx, vy)
        (self.scale, self.spin, self.alpha, self.color) = (scale, spin, alpha, color)
    }

    /// Whether it is dead at frame time `t` under `clock`: age ≥ l (natural death).
    public func isDead(at t: Double, clock: DrawParticleClock) -> Bool {
        clock.local(at: t) - birth >= lifetime
    }

    /// Whether `a` draws before `b`: by birth, then id.
    public static func drawsBefore(_ a: DrawParticleBirth, _ b: DrawParticleBirth) -> Bool {
        (a.birth, a.id) < (b.birth, b.id)
    }

    /// Its state at display time `d` by protocol.md's formula; nil when not alive or not drawn.
    public func state(at d: Double, clock: DrawParticleClock, kind: DrawParticleKind) -> DrawParticleState? {
        let age = clock.local(at: d) - birth
        guard age >= 0, age < lifetime else { return nil }
        let scale = max(0, self.scale + kind.scaleSpeed * age)
        let alpha = min(max(self.alpha + kind.alphaSpeed * age, 0), 1)
        guard Quantize.linear(scale) > 0, Quantize.fraction(alpha) > 0 else { return nil }
        func channel(_ byte: UInt8, _ speed: Double) -> Double { min(max(Double(byte) / 255 + speed * age, 0), 1) }
        return DrawParticleState(
            id: id, x: x + vx * age + 0.5 * kind.ax * age * age, y: y + vy * age + 0.5 * kind.ay * age * age,
            scale: scale, rotation: spin * age, alpha: alpha,
            red: channel(color.red, kind.redSpeed), green: channel(color.green, kind.greenSpeed),
            blue: channel(color.blue, kind.blueSpeed))
    }

    var tree: JSONTree {
        let tuple = JSONTree.array()
        for n in [Double(id), Double(kind), birth, lifetime, x, y, vx, vy, scale, spin] { tuple.append(n) }
        if alpha != 1 || color != Self.white { tuple.append(alpha) }
        if color != Self.white { tuple.append(color.hex) }
        return tuple
    }

    /// Reads a 10-, 11- or 12-element tuple as `tree` writes it.
    init(_ field: FieldReader) throws(ProtocolError) {
        let requirement = "[id, kid, b, l, x, y, vx, vy, s, w, a?, rgb?]"
        let parts = try field.array(requirement)
        guard (10...12).contains(parts.count) else { throw field.error(requirement) }
        var numbers: [Double] = []
        for part in parts[2..<10] { numbers.append(try part.number()) }
        self.init(id: try parts[0].integer(), kind: try parts[1].integer(), birth: numbers[0], lifetime: numbers[1],
                  x: numbers[2], y: numbers[3], vx: numbers[4], vy: numbers[5], scale: numbers[6], spin: numbers[7],
                  alpha: parts.count > 10 ? try parts[10].number() : 1)
        if parts.count > 11 {
            let rgb = try parts[11].color()
            guard rgb.alpha == 255 else { throw parts[11].error("a colour \"#rrggbb\"") }
            color = rgb
        }
    }
}


/// A drawn particle evaluated from its record (protocol.md, "Particles"): centre in the item's
/// rect coordinates, scale, rotation, alpha (before the item's `o`) and colour components 0…1.
public struct DrawParticleState: Hashable, Sendable {
    public var id: Int
    public var x: Double
    public var y: Double
    public var scale: Double
    public var rotation: Double
    public var alpha: Double
    public var red: Double
    public var green: Double
    public var blue: Double
}
